package dev.quaestor.console;

import dev.quaestor.audit.read.ArchivedMonths;
import dev.quaestor.audit.record.AuditEvent;
import dev.quaestor.audit.read.AuditProofs;
import dev.quaestor.audit.read.AuditSearch;
import dev.quaestor.cases.CaseSummary;
import dev.quaestor.cases.Cases;
import dev.quaestor.cases.HeldRecords;
import dev.quaestor.policy.history.StoredRevision;
import io.quarkus.narayana.jta.QuarkusTransaction;
import io.quarkus.qute.CheckedTemplate;
import io.quarkus.qute.TemplateData;
import io.quarkus.qute.TemplateInstance;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * A request's page: its DECISION and OUTCOME side by side, the deciding rules, the policy revision's files
 * as they were when it was in force (rules that decided marked), the SHA-256 of the bytes served, and the
 * request's proof file when its records are under a signed checkpoint, and the cases it may be added to. A request whose
 * month is archived shows the copies legal holds kept of it (their proofs are its proof file), or says where the
 * archive files are.
 */
@Path("/console/requests")
public class RequestResource {

    /** A policy file of the revision, line by line, with the deciding rules' lines marked. */
    @TemplateData
    public record PolicyFile(String name, List<PolicyLine> lines, boolean decisive) {
    }

    @TemplateData
    public record PolicyLine(int no, String text, boolean marked) {
    }

    /** What a request's page shows. */
    @TemplateData
    public record RequestPage(String id, List<RecordRow> records, RecordRow decision, RecordRow outcome, String revision,
            List<String> rules, List<PolicyFile> files, boolean revisionStored, String revisionAltered, String proof, String proofUnavailable,
            List<ProvenTo> provenTo, List<FieldLabel> fields, List<CaseSummary> cases, List<HeldRecords.Held> held,
            List<ArchivedMonths.Archive> archived, String viewedAs) {

        /** What the policy decided and what actually happened, in one sentence (null without a decision). */
        public String story() {
            return WhatHappened.of(decision, records.stream().filter(r -> r.kind().equals("OUTCOME")).toList());
        }

        /**
         * Whether every checkpoint the records are proven to carries an RFC 3161 time-stamp token (a checkpoint's
         * {@code time} line is when the log's key signed it, not a time-stamp).
         */
        public boolean anchored() {
            return !provenTo.isEmpty() && provenTo.stream().allMatch(ProvenTo::timeStamped);
        }

        /** Whether some of those checkpoints carry a time-stamp token and others do not. */
        public boolean partlyAnchored() {
            return provenTo.stream().anyMatch(ProvenTo::timeStamped) && !anchored();
        }
    }

    @CheckedTemplate(basePath = "console", defaultName = CheckedTemplate.HYPHENATED_ELEMENT_NAME)
    static class Templates {
        static native TemplateInstance request(Chrome chrome, RequestPage view);
    }

    private static final Pattern RULE_ID = Pattern.compile("^\\s*(?:-\\s*)?\\{?\\s*id:\\s*['\"]?([^,'\"}\\s]+)");

    private final AuditSearch search;
    private final AuditProofs proofs;
    private final ConsoleAccess access;
    private final ConsolePage page;
    private final Cases cases;
    private final CaseConsoleAccess caseAccess;
    private final HeldRecords held;
    private final ArchivedMonths archive;

    RequestResource(AuditSearch search, AuditProofs proofs, ConsoleAccess access, ConsolePage page, Cases cases,
            CaseConsoleAccess caseAccess, HeldRecords held, ArchivedMonths archive) {
        this.held = held;
        this.archive = archive;
        this.search = search;
        this.proofs = proofs;
        this.access = access;
        this.page = page;
        this.cases = cases;
        this.caseAccess = caseAccess;
    }

    @GET
    @Path("{id}")
    @Produces(MediaType.TEXT_HTML)
    public Response show(@PathParam("id") String id) {
        checkId("console/request", id);
        String viewedAs = access.view(ConsoleAccess.Area.AUDIT, "console/request", "request=" + id);
        var records = search.requestRecords(id).stream().map(RecordRow::new).toList();
        RecordRow decision = records.stream().filter(r -> r.kind().equals("DECISION")).findFirst().orElse(null);
        RecordRow outcome = records.stream().filter(r -> r.kind().equals("OUTCOME")).findFirst().orElse(null);
        String revision = records.stream().map(RecordRow::revision).filter(s -> !s.isEmpty()).findFirst().orElse(null);
        Set<String> rules = decision == null || decision.row().rules() == null ? Set.of() : Set.of(decision.rules().split(","));
        List<PolicyFile> files = List.of();
        String altered = null;
        try {
            files = revision == null ? List.of() : files(revision, rules);
        } catch (StoredRevision.Altered e) {
            altered = e.getMessage(); // files that are not the revision's are never shown as the policy in force
        }
        var proof = records.isEmpty() ? null : proofs.proof(id);
        List<HeldRecords.Held> kept = records.isEmpty() ? held.ofRequest(id) : List.of();
        if (records.isEmpty()) {
            // Answered 404 (with where the request may be: copies legal holds kept, the archive files): on record so.
            viewedAs = access.notAnswered("not-found", "no record in the log has this request id"
                    + (kept.isEmpty() ? "" : "; " + kept.size() + " kept by legal holds shown"));
        }
        TemplateInstance t = Templates.request(page.chrome("Request " + id), new RequestPage(id, records, decision, outcome, revision,
                rules.stream().sorted().toList(), files, revision != null && !files.isEmpty(), altered, proof == null ? null : proof.file(),
                proof == null ? null : proof.unavailable(), ProvenTo.of(proof == null ? null : proof.file()), FieldLabel.ALL,
                kept.isEmpty() && records.isEmpty() || !access.mayOpen(ConsoleAccess.Area.CASES) ? List.of()
                        : cases.visibleTo(caseAccess.staff(), null).cases(), kept, records.isEmpty() ? archive.all() : List.of(),
                viewedAs));
        return Response.status(records.isEmpty() ? 404 : 200).type(MediaType.TEXT_HTML_TYPE.withCharset("UTF-8"))
                .header("X-Request-Id", viewedAs).entity(t).build();
    }

    /** The request's proof file, to check offline with {@code quaestor-verify check}. */
    @GET
    @Path("{id}/proof")
    @Produces("text/plain")
    public Response proof(@PathParam("id") String id) {
        checkId("console/request/proof", id);
        access.view(ConsoleAccess.Area.AUDIT, "console/request/proof", "request=" + id);
        var proof = proofs.proof(id);
        if (proof.file() == null && proof.records() == 0) {
            String kept = keptProof(id);
            if (kept != null) {
                return Response.ok(kept, "text/plain; charset=utf-8")
                        .header("Content-Disposition", "attachment; filename=\"" + id + ".tlog-proof\"").build();
            }
        }
        if (proof.file() == null) {
            boolean none = proof.records() == 0;
            String requestId = access.notAnswered(none ? "not-found" : "unavailable", proof.unavailable());
            throw new ConsoleRefusal(none ? 404 : 409, "No proof file: " + proof.unavailable() + ".", requestId)
                    .backTo("/console/requests/" + java.net.URLEncoder.encode(id, java.nio.charset.StandardCharsets.UTF_8));
        }
        return Response.ok(proof.file(), "text/plain; charset=utf-8")
                .header("Content-Disposition", "attachment; filename=\"" + id + ".tlog-proof\"").build();
    }

    /**
     * Refuses, before anything is read, a request id no record can have (longer than 64 characters, or with a NUL): 400, on record as
     * {@code method}, {@code invalid}, with the id's start. A caller whose role does not open it is refused for that.
     */
    private void checkId(String method, String id) {
        boolean nul = id.indexOf('\0') >= 0;
        if (id.length() <= 64 && !nul) {
            return;
        }
        String detail = "request=" + SearchFormCheck.quoted(id);
        if (!access.isAuditor()) {
            access.view(ConsoleAccess.Area.AUDIT, method, detail); // records the refusal and throws
        }
        String why = nul ? "holds a NUL character (%00)" : "longer than 64 characters";
        throw access.refuse(AuditEvent.Kind.AUDIT_READ, method, "invalid", detail + " refused: " + why, 400,
                "'request' is not a request id: " + SearchFormCheck.quoted(id.replace("\0", "%00")) + " " + why
                        + ". A request id is up to 64 characters, as the X-Request-Id of an answer.").backTo("/console/search");
    }

    /**
     * The proof of a request whose month is archived, from the copies legal holds kept: each record's block once (a
     * record kept by two holds has one proof), in log order; null when no hold kept any of it.
     */
    private String keptProof(String id) {
        var blocks = new java.util.LinkedHashMap<String, String>();
        for (var h : held.ofRequest(id)) {
            blocks.putIfAbsent(h.log() + "/" + h.seq(), h.proof());
        }
        return blocks.isEmpty() ? null : String.join("", blocks.values());
    }

    private static List<PolicyFile> files(String revision, Set<String> rules) {
        Map<String, String> stored = StoredRevision.checkedFiles(revision);
        if (stored == null) {
            return List.of();
        }
        var out = new ArrayList<PolicyFile>();
        stored.forEach((name, text) -> {
            var lines = new ArrayList<PolicyLine>();
            boolean decisive = false;
            String[] split = text.split("\n", -1);
            for (int i = 0; i < split.length; i++) {
                var m = RULE_ID.matcher(split[i]);
                boolean marked = m.find() && rules.contains(m.group(1));
                decisive |= marked;
                lines.add(new PolicyLine(i + 1, split[i], marked));
            }
            out.add(new PolicyFile(name, lines, decisive));
        });
        out.sort((a, b) -> Boolean.compare(b.decisive(), a.decisive()));
        return out;
    }
}
