package dev.quaestor.console;

import dev.quaestor.audit.record.AuditRow;
import io.quarkus.qute.TemplateData;
import java.util.Arrays;
import java.util.List;

/**
 * A policy set that was refused when it was read (it failed validation, so the active revision kept serving), as its
 * {@code POLICY} record has it: when, the revision tried, the revision that stayed active, and each problem with its
 * file and line.
 */
@TemplateData
public record RefusedReload(ShownTime time, String candidate, String kept, List<String> problems, String request) {

    private static final String PREFIX = "refused revision ";

    /** The refusal a {@code POLICY} record with outcome {@code refused} holds. */
    static RefusedReload of(AuditRow r) {
        String detail = r.detail() == null ? "" : r.detail();
        String candidate = "";
        String problems = detail;
        if (detail.startsWith(PREFIX)) {
            int colon = detail.indexOf(": ", PREFIX.length());
            candidate = colon < 0 ? detail.substring(PREFIX.length()) : detail.substring(PREFIX.length(), colon);
            problems = colon < 0 ? "" : detail.substring(colon + 2);
        }
        return new RefusedReload(ShownTime.of(r.time(), java.time.ZoneOffset.UTC), candidate,
                r.revision() == null ? "" : r.revision(),
                problems.isEmpty() ? List.of() : Arrays.stream(problems.split("; ")).toList(), r.request());
    }
}
