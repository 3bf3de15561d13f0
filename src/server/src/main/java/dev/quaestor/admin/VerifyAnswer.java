package dev.quaestor.admin;

import dev.quaestor.audit.AuditLog;
import dev.quaestor.audit.read.OnlineVerifier;
import dev.quaestor.audit.anchor.Anchorer;
import dev.quaestor.evidence.check.Problem;
import dev.quaestor.evidence.check.Report;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.LinkedHashMap;
import java.util.Map;

/** The auditor API's verification: the online check of every log, and its answer with the trusted keys and anchoring. */
@ApplicationScoped
public class VerifyAnswer {

    private final OnlineVerifier verifier;
    private final AuditLog log;
    private final Anchorer anchorer;

    VerifyAnswer(OnlineVerifier verifier, AuditLog log, Anchorer anchorer) {
        this.verifier = verifier;
        this.log = log;
        this.anchorer = anchorer;
    }

    /** Verifies every log in the database. */
    public Report verify() {
        return verifier.verify();
    }

    /** The JSON answer of a verification: each log's summary, problems, warnings, trusted keys and this log's anchoring. */
    public Map<String, Object> body(Report r) {
        var body = new LinkedHashMap<String, Object>();
        body.put("verified", r.ok());
        body.put("logs", r.logs().stream().map(l -> {
            var m = new LinkedHashMap<String, Object>();
            m.put("log", l.log());
            m.put("records", l.records());
            m.put("firstSeq", l.firstSeq());
            m.put("lastSeq", l.lastSeq());
            m.put("formats", l.formats());
            m.put("checkpoints", l.checkpoints());
            m.put("signedThrough", l.signedThrough());
            m.put("unsignedTail", l.unsignedTail());
            m.put("anchors", l.anchors());
            m.put("anchoredThrough", l.anchoredThrough());
            m.put("anchoredAt", l.anchoredAt() == null ? null : l.anchoredAt().toString());
            m.put("unanchoredTail", l.unanchoredTail());
            m.put("archivedThrough", l.archivedThrough());
            m.put("nodes", l.nodes());
            m.put("broken", l.broken());
            return m;
        }).toList());
        body.put("problems", r.problems().stream().map(VerifyAnswer::problem).toList());
        body.put("warnings", r.warnings());
        body.put("trustedKeys", log.trustedKeyStrings());
        var a = anchorer.status();
        var anchoring = new LinkedHashMap<String, Object>();
        anchoring.put("enabled", a.enabled());
        if (a.enabled()) {
            anchoring.put("log", log.logId());
            anchoring.put("tsa", a.tsa());
            anchoring.put("lagSeconds", a.lagSeconds());
            anchoring.put("waiting", a.waiting());
            anchoring.put("anchoredThrough", a.anchoredThrough());
            anchoring.put("anchoredAt", a.anchoredAt() == null ? null : a.anchoredAt().toString());
            anchoring.put("lastFailure", a.lastFailure());
        }
        body.put("anchoring", anchoring);
        return body;
    }

    /**
     * A problem as the offline verifier's {@code --json} gives it, its evidence included (the value expected and the
     * value found, what else is involved), and the records it concerns when it cannot tell which one is broken; without
     * line numbers, which place things in an export file and mean nothing here.
     */
    private static Map<String, Object> problem(Problem p) {
        var m = new LinkedHashMap<String, Object>();
        m.put("kind", p.kind().name());
        m.put("log", p.log());
        m.put("seq", p.seq());
        m.put("message", p.message());
        if (p.records() != null) {
            m.put("records", Map.of("first", p.records().first(), "last", p.records().last()));
        }
        m.put("expected", p.evidence().expected());
        m.put("found", p.evidence().found());
        m.put("involved", p.evidence().involved().stream().map(Problem.Involved::what).toList());
        return m;
    }
}
