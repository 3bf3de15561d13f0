package dev.quaestor.console;

import dev.quaestor.audit.AuditLog;
import dev.quaestor.audit.read.AuditProofs;
import dev.quaestor.audit.record.AuditRow;
import dev.quaestor.audit.read.AuditSearch;
import dev.quaestor.audit.read.OnlineVerifier;
import dev.quaestor.audit.read.LongReads;
import dev.quaestor.audit.anchor.Anchorer;
import dev.quaestor.evidence.check.Problem;
import dev.quaestor.evidence.check.Report;
import io.quarkus.qute.CheckedTemplate;
import io.quarkus.qute.TemplateData;
import io.quarkus.qute.TemplateInstance;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * Integrity: each writer's log, its last signed checkpoint, how far signatures and time-stamps vouch for its
 * records, and whether everything verifies, checked now with the offline verifier's own code against the pinned
 * keys and TSA roots; and this replica's anchoring, with how far behind it is. A broken record is named with its log
 * and position and, where the database still holds it, linked to its request; a problem that cannot tell which record
 * is broken (a checkpoint or stored node that no longer matches its records) names those records, and no one of them.
 */
@Path("/console/integrity")
@TemplateData(target = Report.Summary.class)
@TemplateData(target = AuditProofs.LastCheckpoint.class)
@TemplateData(target = Anchorer.Status.class)
@Produces(MediaType.TEXT_HTML)
public class IntegrityResource {

    @TemplateData
    public record LogRow(Report.Summary summary, AuditProofs.LastCheckpoint checkpoint, boolean broken) {
    }

    /**
     * A problem as the page lists it: its log, its position (seq), and the request of the record now there; or, for a
     * problem that cannot tell which record is broken ({@code first} to {@code last}, else 0), those records and what
     * is known of them, with no record named.
     */
    @TemplateData
    public record ProblemRow(String log, long seq, long first, long last, String message, String request, String within) {

        static ProblemRow of(Problem p, java.util.function.Function<Long, String> requestAt) {
            Problem.Span span = p.records();
            if (span != null) {
                return new ProblemRow(p.log(), p.seq(), span.first(), span.last(), p.message(), null, within(p, span));
            }
            return new ProblemRow(p.log(), p.seq(), 0, 0, p.message(), p.seq() <= 0 ? null : requestAt.apply(p.seq()), null);
        }

        /** Whether the problem concerns one of several records rather than the one at its seq. */
        public boolean range() {
            return within != null;
        }

        private static String within(Problem p, Problem.Span span) {
            String records = "records " + span.first() + " to " + span.last();
            return p.kind() == Problem.Kind.NODE_MISMATCH
                    ? "The stored tree node over " + records + " no longer matches them: the node, or some record among them,"
                            + " was changed. Which one cannot be told from the node alone."
                    : "Some record among " + records + " no longer matches what the checkpoint at " + p.seq() + " records"
                            + " signed: it was changed, inserted or removed. Which one cannot be told from the checkpoint alone.";
        }
    }

    /** What the integrity page shows. */
    @TemplateData
    public record IntegrityPage(boolean ok, List<LogRow> logs, List<ProblemRow> problems, List<String> warnings, long records, long ms,
            List<String> keys, Anchorer.Status anchoring, String chain) {
    }

    @CheckedTemplate(basePath = "console", defaultName = CheckedTemplate.HYPHENATED_ELEMENT_NAME)
    static class Templates {
        static native TemplateInstance integrity(Chrome chrome, IntegrityPage view);
    }

    private final OnlineVerifier verifier;
    private final AuditProofs proofs;
    private final AuditSearch search;
    private final AuditLog log;
    private final Anchorer anchorer;
    private final ConsoleAccess access;
    private final ConsolePage page;

    IntegrityResource(OnlineVerifier verifier, AuditProofs proofs, AuditSearch search, AuditLog log, Anchorer anchorer, ConsoleAccess access, ConsolePage page) {
        this.verifier = verifier;
        this.proofs = proofs;
        this.search = search;
        this.log = log;
        this.anchorer = anchorer;
        this.access = access;
        this.page = page;
    }

    @GET
    public TemplateInstance show() {
        long started = System.nanoTime();
        Report report;
        try (var place = access.viewHolding(ConsoleAccess.Area.AUDIT, LongReads.Kind.VERIFY, "console/integrity", null).place()) {
            report = verifier.verify();
        }
        long ms = (System.nanoTime() - started) / 1_000_000;
        Map<String, AuditProofs.LastCheckpoint> last = proofs.lastCheckpoints().stream()
                .collect(Collectors.toMap(AuditProofs.LastCheckpoint::log, Function.identity(), (a, b) -> a));
        var brokenLogs = report.problems().stream().map(p -> p.log()).collect(Collectors.toSet());
        List<LogRow> logs = report.logs().stream().map(s -> new LogRow(s, last.get(s.log()), brokenLogs.contains(s.log()))).toList();
        List<ProblemRow> problems = report.problems().stream().map(p -> ProblemRow.of(p,
                seq -> search.recordAt(p.log(), seq).map(AuditRow::request).orElse(null))).toList();
        return Templates.integrity(page.chrome("Integrity"), new IntegrityPage(report.ok(), logs, problems, report.warnings(),
                report.records(), ms, log.trustedKeyStrings(), anchorer.status(), log.logId()));
    }
}
