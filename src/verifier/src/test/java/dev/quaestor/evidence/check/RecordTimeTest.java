package dev.quaestor.evidence.check;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** The record time's quick reading says what the JDK's parser says, for every text: a time, or none. */
class RecordTimeTest {

    private static Instant jdk(String text) {
        try {
            return Instant.parse(text);
        } catch (DateTimeParseException e) {
            return null;
        }
    }

    @Test
    void readsEveryTimeAsTheJdkDoes() {
        var random = new SplittableRandom(7);
        var texts = new ArrayList<String>();
        for (int i = 0; i < 200_000; i++) {
            // 1970 to 2200, at nanosecond, microsecond, millisecond and second precision, as Instant prints them
            long second = random.nextLong(0, 7_258_118_400L);
            int nanos = switch (i % 4) {
                case 0 -> random.nextInt(1_000_000_000);
                case 1 -> random.nextInt(1_000_000) * 1_000;
                case 2 -> random.nextInt(1_000) * 1_000_000;
                default -> 0;
            };
            texts.add(Instant.ofEpochSecond(second, nanos).toString());
        }
        texts.addAll(List.of("2024-02-29T00:00:00Z", "2023-02-29T00:00:00Z", "2026-04-31T12:00:00Z", "2026-13-01T00:00:00Z",
                "2026-00-10T00:00:00Z", "2026-11-25T24:00:00Z", "2026-11-25T23:60:00Z", "2026-11-25T23:59:60Z",
                "2026-11-25T19:04:35.Z", "2026-11-25T19:04:35.1234567891Z", "2026-11-25T19:04:35.12a456Z", "2026-11-25 19:04:35Z",
                "2026-11-25T19:04:35", "2026-11-25T19:04:35+01:00", "2026-11-25T19:04Z", "+12026-11-25T19:04:35Z", "-0001-01-01T00:00:00Z",
                "0000-01-01T00:00:00Z", "2026-1l-25T19:04:35Z", "", "Z", "2026-11-25T19:04:35.000000000Z", "2026-11-25T19:04:35.5Z",
                "2026-11-25t19:04:35z", "2026-11-25T19:04:35.123456Z\n"));
        for (String text : texts) {
            assertEquals(jdk(text), RecordTime.parse(text), text);
        }
        assertEquals(null, RecordTime.parse(null));
    }
}
