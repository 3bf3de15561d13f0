package dev.quaestor.console;

import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Dates as people type them, read in their time zone; an offset wins over the zone; a bad date names the forms. */
class TypedTimeTest {

    private static final ZoneId ZURICH = ZoneId.of("Europe/Zurich");

    @Test
    void aDateOrADateAndTimeIsReadInTheZone() {
        Instant eight = Instant.parse("2026-11-23T07:00:00Z"); // 08:00 in Zurich, winter time (+01:00)
        assertEquals(eight, TypedTime.parse("2026-11-23 08:00", ZURICH, false, "from"));
        assertEquals(eight, TypedTime.parse("2026-11-23T08:00", ZURICH, false, "from"));
        assertEquals(eight, TypedTime.parse("23.11.2026 08:00", ZURICH, false, "from"));
        assertEquals(eight.plusSeconds(30), TypedTime.parse(" 2026-11-23 08:00:30 ", ZURICH, false, "from"));
        assertEquals(Instant.parse("2026-11-22T23:00:00Z"), TypedTime.parse("2026-11-23", ZURICH, false, "from"));
        assertEquals(Instant.parse("2026-11-22T23:00:00Z"), TypedTime.parse("23.11.2026", ZURICH, false, "from"));
        // Summer time: +02:00.
        assertEquals(Instant.parse("2026-07-01T06:00:00Z"), TypedTime.parse("1.7.2026 08:00", ZURICH, false, "from"));
        assertEquals(Instant.parse("2026-11-23T08:00:00Z"), TypedTime.parse("2026-11-23 08:00", ZoneOffset.UTC, false, "from"));
    }

    @Test
    void aDateAloneEndingARangeTakesThatDayIn() {
        assertEquals(Instant.parse("2026-11-23T23:00:00Z"), TypedTime.parse("23.11.2026", ZURICH, true, "to"));
        assertEquals(Instant.parse("2026-11-23T07:00:00Z"), TypedTime.parse("2026-11-23 08:00", ZURICH, true, "to"),
                "a time is the time, whichever end");
    }

    @Test
    void anOffsetDecidesOverTheZone() {
        assertEquals(Instant.parse("2026-11-23T07:00:00Z"), TypedTime.parse("2026-11-23T08:00+01:00", ZoneOffset.UTC, false, "from"));
        assertEquals(Instant.parse("2026-11-23T08:00:00Z"), TypedTime.parse("2026-11-23T08:00:00Z", ZURICH, false, "from"));
        assertEquals(Instant.parse("2026-11-23T08:00:00.123456789Z"),
                TypedTime.parse("2026-11-23T08:00:00.123456789Z", ZURICH, false, "from"));
    }

    @Test
    void aTimeRelativeToNowIsReadWhenThePageIsAsked() {
        var clock = java.time.Clock.fixed(Instant.parse("2026-11-29T10:30:00Z"), ZoneOffset.UTC); // 11:30 in Zurich
        assertEquals(Instant.parse("2026-11-22T10:30:00Z"), TypedTime.parse("-7d", ZURICH, false, "from", clock));
        assertEquals(Instant.parse("2026-11-22T10:30:00Z"), TypedTime.parse("last 7 days", ZURICH, false, "from", clock));
        assertEquals(Instant.parse("2026-11-22T10:30:00Z"), TypedTime.parse("7 days ago", ZURICH, false, "from", clock));
        assertEquals(Instant.parse("2026-11-29T09:30:00Z"), TypedTime.parse("last hour", ZURICH, false, "from", clock));
        assertEquals(Instant.parse("2026-11-29T10:00:00Z"), TypedTime.parse("-30m", ZURICH, false, "from", clock));
        assertEquals(Instant.parse("2026-11-29T10:30:00Z"), TypedTime.parse("now", ZURICH, true, "to", clock));
        // Days are the reader's: today in Zurich began at 23:00 UTC the day before, and as an end it is the next midnight.
        assertEquals(Instant.parse("2026-11-28T23:00:00Z"), TypedTime.parse("today", ZURICH, false, "from", clock));
        assertEquals(Instant.parse("2026-11-29T23:00:00Z"), TypedTime.parse("Today", ZURICH, true, "to", clock));
        assertEquals(Instant.parse("2026-11-27T23:00:00Z"), TypedTime.parse("yesterday", ZURICH, false, "from", clock));
        assertEquals(Instant.parse("2026-11-28T23:00:00Z"), TypedTime.parse("yesterday", ZURICH, true, "to", clock));
        assertThrows(IllegalArgumentException.class, () -> TypedTime.parse("-7y", ZURICH, false, "from", clock));
    }

    @Test
    void aBadDateNamesTheFieldTheZoneAndTheFormsAccepted() {
        var e = assertThrows(IllegalArgumentException.class, () -> TypedTime.parse("the day before", ZURICH, false, "from"));
        assertTrue(e.getMessage().contains("'from'") && e.getMessage().contains("Europe/Zurich") && e.getMessage().contains("23.11.2026"),
                e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> TypedTime.parse("31.02.2026", ZURICH, false, "to"));
        assertThrows(IllegalArgumentException.class, () -> TypedTime.parse("2026-11-23 25:00", ZURICH, false, "to"));
    }
}
