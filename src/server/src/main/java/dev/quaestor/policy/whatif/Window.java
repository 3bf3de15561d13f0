package dev.quaestor.policy.whatif;

import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** The stretch of history replayed: {@code [from, to)}. A fact is in it if its hour overlaps it. */
public record Window(Instant from, Instant to) {

    private static final Pattern SINCE = Pattern.compile("(\\d+)([hd])");

    public Window {
        if (from != null && to != null && !from.isBefore(to)) {
            throw new IllegalArgumentException("the window's start (" + from + ") is not before its end (" + to + ")");
        }
    }

    /**
     * From {@code --since 30d} (or {@code 12h}), or {@code --from}/{@code --to} (ISO-8601), each optional; what is not
     * given is taken from {@code fallback} (the facts export's own window).
     */
    public static Window of(String since, String from, String to, Instant now, Window fallback) {
        if (since != null && (from != null || to != null)) {
            throw new IllegalArgumentException("give since or from and to, not both");
        }
        if (since != null) {
            Matcher m = SINCE.matcher(since);
            if (!m.matches() || m.group(1).chars().allMatch(c -> c == '0')) {
                throw new IllegalArgumentException("since must look like 30d or 12h, not '" + since + "'");
            }
            if (m.group(1).length() > 18) {
                // Past what a long holds, and far past the earliest instant there is.
                throw new IllegalArgumentException("since '" + since + "' reaches before the earliest time there is");
            }
            long n = Long.parseLong(m.group(1));
            now = endingNow(now);
            try {
                return new Window(now.minus(m.group(2).equals("d") ? Duration.ofDays(n) : Duration.ofHours(n)), now);
            } catch (ArithmeticException | java.time.DateTimeException e) {
                throw new IllegalArgumentException("since '" + since + "' reaches before the earliest time there is");
            }
        }
        return new Window(from == null ? fallback.from() : instant(from), to == null ? fallback.to() : instant(to));
    }

    /**
     * A window's end at {@code now}: to the second, as the window is printed in reports and errors, where the
     * nanoseconds of "now" say nothing; rounded up, so that what was recorded up to now (in this very second too) is in it.
     */
    public static Instant endingNow(Instant now) {
        Instant second = now.truncatedTo(ChronoUnit.SECONDS);
        return second.equals(now) ? now : second.plusSeconds(1);
    }

    /** Whether the two windows share an instant (an open end reaches as far as the other goes). */
    public boolean overlaps(Window other) {
        return (from == null || other.to == null || from.isBefore(other.to))
                && (to == null || other.from == null || other.from.isBefore(to));
    }

    /** {@code 2026-11-01T00:00:00Z .. 2026-11-29T00:00:00Z}, with {@code …} for an open end. */
    public String describe() {
        return (from == null ? "…" : from.toString()) + " .. " + (to == null ? "…" : to.toString());
    }

    public boolean holds(Fact f) {
        return (to == null || f.hour().isBefore(to)) && (from == null || f.hour().plus(Duration.ofHours(1)).isAfter(from));
    }

    static Instant instant(String s) {
        try {
            return OffsetDateTime.parse(s).toInstant();
        } catch (DateTimeParseException e) {
            throw new IllegalArgumentException("'" + s + "' is not an ISO-8601 time with an offset, e.g. 2026-11-01T00:00:00Z");
        }
    }
}
