package dev.quaestor.console;

import io.quarkus.qute.TemplateData;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;

/** A record's time as the pages show it: in the reader's time zone, with UTC beside it unless that zone is UTC. */
@TemplateData
public record ShownTime(String local, String utc) {

    private static final DateTimeFormatter LOCAL = DateTimeFormatter.ofPattern("uuuu-MM-dd HH:mm:ss");
    private static final DateTimeFormatter UTC = DateTimeFormatter.ofPattern("uuuu-MM-dd HH:mm:ss'Z'").withZone(ZoneOffset.UTC);

    static final ShownTime NONE = new ShownTime("", "");

    /** Whether times in {@code zone} read as in UTC (UTC, Etc/UTC, GMT, Z…): a page then shows each time once. */
    static boolean isUtc(String zone) {
        try {
            return ZoneId.of(zone).normalized().equals(ZoneOffset.UTC);
        } catch (java.time.DateTimeException | NullPointerException e) {
            return false;
        }
    }

    /** A time that is not a record's (a case opened, a revision activated, a checkpoint signed) as every page shows it: in UTC. */
    static String utc(Instant t) {
        return t == null ? "" : UTC.format(t);
    }

    static ShownTime of(Instant t, ZoneId zone) {
        return t == null ? NONE : new ShownTime(LOCAL.format(t.atZone(zone)), UTC.format(t));
    }
}
