package dev.quaestor.console;

import io.quarkus.qute.TemplateData;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;

/** A record's time as the pages show it: in the reader's time zone, with UTC beside it. */
@TemplateData
public record ShownTime(String local, String utc) {

    private static final DateTimeFormatter LOCAL = DateTimeFormatter.ofPattern("uuuu-MM-dd HH:mm:ss");
    private static final DateTimeFormatter UTC = DateTimeFormatter.ofPattern("uuuu-MM-dd HH:mm:ss'Z'").withZone(ZoneOffset.UTC);

    static final ShownTime NONE = new ShownTime("", "");

    static ShownTime of(Instant t, ZoneId zone) {
        return t == null ? NONE : new ShownTime(LOCAL.format(t.atZone(zone)), UTC.format(t));
    }
}
