package dev.quaestor.retention;

import java.time.Instant;
import java.time.YearMonth;
import java.time.ZoneOffset;

/** A month of the audit log as its partition holds it: {@code [from, to)} in UTC, and the partition's name. */
record ArchiveMonth(YearMonth month, String partition) {

    Instant from() {
        return month.atDay(1).atStartOfDay().toInstant(ZoneOffset.UTC);
    }

    Instant to() {
        return month.plusMonths(1).atDay(1).atStartOfDay().toInstant(ZoneOffset.UTC);
    }

    /** The archive file's name: {@code audit-archive-2026-01.jsonl}. */
    String fileName() {
        return "audit-archive-" + month + ".jsonl";
    }
}
