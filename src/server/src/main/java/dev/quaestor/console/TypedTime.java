package dev.quaestor.console;

import dev.quaestor.audit.read.AuditQuery;
import java.time.Clock;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeFormatterBuilder;
import java.time.format.DateTimeParseException;
import java.time.format.ResolverStyle;
import java.time.temporal.ChronoField;
import java.util.List;

/**
 * A date, or a date and time, as a person types it into the search form, read in their time zone: {@code 2026-11-23},
 * {@code 23.11.2026}, {@code 2026-11-23 08:00}, {@code 2026-11-23T08:00:30}, {@code 23.11.2026 08:00}; with an offset
 * or {@code Z} ({@code 2026-11-23T08:00+01:00}) the offset decides and the zone is not used. A date alone is the start
 * of that day, or, as the end of a range, the end of it (the next midnight), so that "to 23.11.2026" takes that day in.
 * A time relative to now ({@link RelativeTime}: {@code -7d}, {@code last 7 days}, {@code today}) is read at the moment
 * the page is asked for.
 */
final class TypedTime {

    private static final DateTimeFormatter TIME = new DateTimeFormatterBuilder().appendPattern("HH:mm")
            .optionalStart().appendPattern(":ss").optionalStart().appendFraction(ChronoField.NANO_OF_SECOND, 1, 9, true)
            .optionalEnd().optionalEnd().toFormatter();
    private static final List<DateTimeFormatter> DATES = List.of(DateTimeFormatter.ISO_LOCAL_DATE,
            DateTimeFormatter.ofPattern("d.M.uuuu").withResolverStyle(ResolverStyle.STRICT));
    private static final List<DateTimeFormatter> DATE_TIMES = List.of(
            new DateTimeFormatterBuilder().append(DateTimeFormatter.ISO_LOCAL_DATE).appendLiteral('T').append(TIME).toFormatter()
                    .withResolverStyle(ResolverStyle.STRICT),
            new DateTimeFormatterBuilder().append(DateTimeFormatter.ISO_LOCAL_DATE).appendLiteral(' ').append(TIME).toFormatter()
                    .withResolverStyle(ResolverStyle.STRICT),
            new DateTimeFormatterBuilder().appendPattern("d.M.uuuu").appendLiteral(' ').append(TIME).toFormatter()
                    .withResolverStyle(ResolverStyle.STRICT));

    private TypedTime() {
    }

    /**
     * The instant {@code text} names in {@code zone}; {@code end}: a date alone is the end of that day. Throws
     * {@link IllegalArgumentException} naming the field ({@code what}) and the forms accepted.
     */
    static Instant parse(String text, ZoneId zone, boolean end, String what) {
        return parse(text, zone, end, what, Clock.systemUTC());
    }

    /** As {@link #parse(String, ZoneId, boolean, String)}, a relative time read at {@code clock}'s now. */
    static Instant parse(String text, ZoneId zone, boolean end, String what, Clock clock) {
        Instant read = read(text.trim(), zone, end, what, clock);
        if (!AuditQuery.askable(read)) {
            throw new IllegalArgumentException("'" + what + "' is outside " + AuditQuery.TIMES + ": \"" + text.trim() + "\" is "
                    + read + ". No record is, and the search takes no time outside them");
        }
        return read;
    }

    private static Instant read(String t, ZoneId zone, boolean end, String what, Clock clock) {
        var relative = RelativeTime.parse(t, zone, end, clock);
        if (relative.isPresent()) {
            return relative.get();
        }
        try {
            return OffsetDateTime.parse(t.replace(' ', 'T')).toInstant();
        } catch (DateTimeParseException e) {
            // no offset: a local date and time, or a date
        }
        for (DateTimeFormatter f : DATE_TIMES) {
            try {
                return LocalDateTime.parse(t, f).atZone(zone).toInstant();
            } catch (DateTimeParseException e) {
                // the next form
            }
        }
        for (DateTimeFormatter f : DATES) {
            try {
                LocalDate day = LocalDate.parse(t, f);
                return (end ? day.plusDays(1) : day).atStartOfDay(zone).toInstant();
            } catch (DateTimeParseException e) {
                // the next form
            }
        }
        throw new IllegalArgumentException("'" + what + "' is not a date or time: \"" + t + "\". Use 2026-11-23, 23.11.2026, "
                + "2026-11-23 08:00 or 23.11.2026 08:00 (read in " + zone.getId() + "), give an offset: 2026-11-23T08:00+01:00, "
                + "or a time relative to now: -1h, -7d, last 7 days, today, yesterday");
    }
}
