package dev.quaestor.console;

import io.quarkus.qute.TemplateData;
import java.util.List;

/**
 * A range of dates the pages offer with one click: its name, and its ends as typed, relative to now
 * ({@link RelativeTime}), so that a link, a bookmark or a saved search keeps meaning "the last 7 days".
 */
@TemplateData
public record RangePreset(String name, String from, String to) {

    static final List<RangePreset> ALL = List.of(new RangePreset("last hour", "-1h", ""), new RangePreset("today", "today", "today"),
            new RangePreset("yesterday", "yesterday", "yesterday"), new RangePreset("last 7 days", "-7d", ""),
            new RangePreset("last 30 days", "-30d", ""), new RangePreset("last 365 days", "-365d", ""));
}
