package dev.quaestor.policy;

import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.yaml.snakeyaml.nodes.Node;

/** Reads a rule's {@code when: timeWindow:}, each of its parts checked on its own. */
final class TimeWindowReader {

    private static final Set<String> WINDOW_KEYS = Set.of("days", "from", "to", "zone");

    private TimeWindowReader() {
    }

    private static final Map<String, java.time.DayOfWeek> DAYS = Map.of("mon", java.time.DayOfWeek.MONDAY,
            "tue", java.time.DayOfWeek.TUESDAY, "wed", java.time.DayOfWeek.WEDNESDAY, "thu", java.time.DayOfWeek.THURSDAY,
            "fri", java.time.DayOfWeek.FRIDAY, "sat", java.time.DayOfWeek.SATURDAY, "sun", java.time.DayOfWeek.SUNDAY);

    static TimeWindow read(YamlReader y, Node node, String what) {
        var m = y.entries(node, "timeWindow of " + what, WINDOW_KEYS);
        var parts = new Parts();
        parts.check(y.hasAll(node, m, "timeWindow of " + what, Set.of("from", "to", "zone")));
        Set<java.time.DayOfWeek> days = m.containsKey("days") ? parts.read(m.get("days"), n -> days(y, n, what))
                : EnumSet.allOf(java.time.DayOfWeek.class);
        java.time.LocalTime from = parts.read(m.get("from"), n -> time(y, n, what));
        java.time.LocalTime to = parts.read(m.get("to"), n -> time(y, n, what));
        java.time.ZoneId zone = parts.read(m.get("zone"), n -> zone(y, n, what));
        parts.done();
        return new TimeWindow(days, from, to, zone);
    }

    /** The window's days; none would be a window never open: an allow that never applies, a deny silently dead. */
    private static Set<java.time.DayOfWeek> days(YamlReader y, Node node, String what) {
        var days = EnumSet.noneOf(java.time.DayOfWeek.class);
        var parts = new Parts();
        List<Node> entries = y.sequence(node, "days");
        if (entries.isEmpty()) {
            throw y.fail(node, what + ": timeWindow has no days, so the rule would never apply"
                    + " (leave days out for every day of the week)");
        }
        for (Node n : entries) {
            java.time.DayOfWeek day = parts.read(() -> {
                String d = y.string(n, "an entry of days");
                java.time.DayOfWeek known = DAYS.get(d.toLowerCase(java.util.Locale.ROOT));
                if (known == null) {
                    throw y.fail(n, what + ": unknown day '" + d + "' (mon, tue, wed, thu, fri, sat, sun)");
                }
                return known;
            });
            if (day != null) {
                days.add(day);
            }
        }
        parts.done();
        return days;
    }

    private static java.time.LocalTime time(YamlReader y, Node node, String what) {
        String s = y.string(node, "time of day");
        try {
            return java.time.LocalTime.parse(s);
        } catch (java.time.format.DateTimeParseException e) {
            throw y.fail(node, what + ": time of day must look like 08:00, not '" + s + "'");
        }
    }

    private static java.time.ZoneId zone(YamlReader y, Node node, String what) {
        String zone = y.string(node, "zone");
        try {
            return java.time.ZoneId.of(zone);
        } catch (java.time.DateTimeException e) {
            throw y.fail(node, what + ": unknown time zone '" + zone + "'");
        }
    }
}
