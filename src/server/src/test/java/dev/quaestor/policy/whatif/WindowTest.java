package dev.quaestor.policy.whatif;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.time.Instant;
import org.junit.jupiter.api.Test;

class WindowTest {

    private static final Window EXPORT = new Window(Instant.parse("2026-11-01T00:00:00Z"), Instant.parse("2026-11-29T00:00:00Z"));

    @Test
    void aWindowBackFromNowIsPrintedToTheSecondAndHoldsWhatWasRecordedUpToNow() {
        Window w = Window.of("12h", null, null, Instant.parse("2026-12-01T15:24:44.123456789Z"), EXPORT);
        assertEquals("2026-12-01T03:24:45Z .. 2026-12-01T15:24:45Z", w.describe());
        assertEquals("2026-12-01T03:24:44Z .. 2026-12-01T15:24:44Z",
                Window.of("12h", null, null, Instant.parse("2026-12-01T15:24:44Z"), EXPORT).describe());
    }

    @Test
    void givenEndsAreKeptAsGivenAndMissingOnesComeFromTheExport() {
        Window w = Window.of(null, "2026-11-10T08:30:00+01:00", null, Instant.now(), EXPORT);
        assertEquals("2026-11-10T07:30:00Z .. 2026-11-29T00:00:00Z", w.describe());
        assertEquals("… .. …", new Window(null, null).describe());
    }

    @Test
    void badSpellingsAreRefusedSayingWhatIsExpected() {
        var e = assertThrows(IllegalArgumentException.class, () -> Window.of("30m", null, null, Instant.now(), EXPORT));
        assertEquals("since must look like 30d or 12h, not '30m'", e.getMessage());
        var tooLong = org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                () -> Window.of("99999999999999999999d", null, null, java.time.Instant.now(), new Window(null, null)));
        assertEquals("since '99999999999999999999d' reaches before the earliest time there is", tooLong.getMessage());
        assertThrows(IllegalArgumentException.class, () -> Window.of("1d", "2026-11-10T00:00:00Z", null, Instant.now(), EXPORT));
        assertThrows(IllegalArgumentException.class, () -> Window.of(null, "2026-11-30T00:00:00Z", "2026-11-10T00:00:00Z", Instant.now(), EXPORT));
    }
}
