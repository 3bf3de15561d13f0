package dev.quaestor.console.export;

import java.util.Locale;

/** The formats a search can be exported in. */
public enum ExportFormat {
    /** One record per line, as the evidence export writes records (docs/audit-format.md). */
    JSONL("application/jsonl", "jsonl"),
    /** One record per row; the header names the record fields. */
    CSV("text/csv", "csv"),
    /** One OCSF 1.8.0 event per request, one per line (docs/audit.md, "OCSF"). */
    OCSF("application/x-ndjson", "ocsf.jsonl");

    public final String mediaType;
    public final String extension;

    ExportFormat(String mediaType, String extension) {
        this.mediaType = mediaType;
        this.extension = extension;
    }

    /** The format named {@code name} (case-insensitive), or null. */
    public static ExportFormat named(String name) {
        if (name == null) {
            return null;
        }
        try {
            return valueOf(name.toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            return null;
        }
    }
}
