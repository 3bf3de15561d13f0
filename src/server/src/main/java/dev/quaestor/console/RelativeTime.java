package dev.quaestor.console;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneId;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * A time relative to now, as a person types it or a preset writes it, so that a saved search or a link keeps meaning
 * "the last 7 days" whenever it is opened: {@code now}, {@code today}, {@code yesterday} (days in the reader's time
 * zone; as the end of a range, the end of that day), {@code -30m}, {@code -1h}, {@code -7d}, and the same in words:
 * {@code 7 days ago}, {@code last 7 days}, {@code last hour}.
 */
final class RelativeTime {

    private static final Pattern SHORT = Pattern.compile("-\\s*(\\d{1,6})\\s*([mhd])");
    private static final Pattern WORDS = Pattern.compile("(?:(\\d{1,6})\\s+(minute|hour|day|week)s?\\s+ago"
            + "|last\\s+(\\d{1,6})?\\s*(minute|hour|day|week)s?)");

    private RelativeTime() {
    }

    /** The instant {@code text} names at {@code clock}'s now, days in {@code zone}; empty if it is not a relative time. */
    static Optional<Instant> parse(String text, ZoneId zone, boolean end, Clock clock) {
        String t = text.trim().toLowerCase(Locale.ROOT);
        Instant now = clock.instant();
        LocalDate today = LocalDate.ofInstant(now, zone);
        switch (t) {
            case "now":
                return Optional.of(now);
            case "today":
                return Optional.of((end ? today.plusDays(1) : today).atStartOfDay(zone).toInstant());
            case "yesterday":
                return Optional.of((end ? today : today.minusDays(1)).atStartOfDay(zone).toInstant());
            default:
                break;
        }
        var s = SHORT.matcher(t);
        if (s.matches()) {
            return Optional.of(now.minus(span(Long.parseLong(s.group(1)), s.group(2))));
        }
        var w = WORDS.matcher(t);
        if (w.matches()) {
            String n = w.group(1) != null ? w.group(1) : w.group(3);
            String unit = w.group(2) != null ? w.group(2) : w.group(4);
            return Optional.of(now.minus(span(n == null ? 1 : Long.parseLong(n), unit.substring(0, 1))));
        }
        return Optional.empty();
    }

    private static Duration span(long n, String unit) {
        return switch (unit) {
            case "m" -> Duration.ofMinutes(n);
            case "h" -> Duration.ofHours(n);
            case "w" -> Duration.ofDays(7 * n);
            default -> Duration.ofDays(n);
        };
    }
}
