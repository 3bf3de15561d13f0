package dev.quaestor.cases;

import dev.quaestor.audit.read.AuditQuery;
import dev.quaestor.audit.record.SealKey;
import io.quarkus.narayana.jta.QuarkusTransaction;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.LockModeType;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;

/**
 * Legal holds of a case: put one, widen it, ask for its release, release it. Four eyes: whoever asked for the
 * release cannot release the hold; a second member of staff who sees the case must. A hold is never narrowed (that is
 * a release, and needs the second person). As with every change to a case, each is checked, made, and put on record
 * ({@link ChangeRecorder}, under the hold's uri) before it is stored ({@link ChangeCommit}). The record names the hold,
 * its scope and time range and who asked for its release; its target and the reasons staff give are on record only as
 * their HMAC under the case's key ({@link CaseSeal}), as every text of a case is.
 */
@ApplicationScoped
public class Holds {

    static final int MAX_HOLDS = 100;

    public List<HoldView> ofCase(long caseId, Staff staff) {
        return QuarkusTransaction.requiringNew().call(() -> {
            Cases.visible(caseId, staff);
            return LegalHold.ofCase(caseId).stream().map(HoldView::of).toList();
        });
    }

    public HoldView put(long caseId, Staff staff, NewHold spec, ChangeRecorder recorder) {
        HoldScope scope = scope(spec.scope());
        String target = switch (scope) {
            case CASE -> {
                if (spec.target() != null && !spec.target().isBlank()) {
                    throw CaseRefusal.invalid("a CASE hold covers the case's requests and takes no target");
                }
                yield null;
            }
            case SUBJECT -> Checked.text("the subject to hold", spec.target(), 2048);
            case URI_PREFIX -> Checked.text("the uri prefix to hold", spec.target(), 4096);
        };
        Instant from = time("from", Checked.text("'from' (the start of the time range)", spec.from(), 64));
        Instant to = spec.to() == null || spec.to().isBlank() ? null : time("to", spec.to());
        range(from, to);
        if (from.isAfter(Instant.now())) {
            // A start still to come holds nothing until then, which a mistyped year makes easy to miss.
            throw CaseRefusal.invalid("'from' is in the future: a hold keeps records from its start, so start it now or earlier");
        }
        String reason = Checked.text("a reason", spec.reason(), 4096);
        return ChangeCommit.run(recorder, commit -> {
            AuditCase c = Cases.visible(caseId, staff);
            if (LegalHold.count("auditCase.id = ?1", caseId) >= MAX_HOLDS) {
                throw CaseRefusal.invalid("a case has at most " + MAX_HOLDS + " holds");
            }
            var h = new LegalHold();
            h.auditCase = c;
            h.scope = scope;
            h.target = target;
            h.from = from;
            h.to = to;
            h.reason = reason;
            h.createdBy = staff.subject();
            h.createdAt = Instant.now();
            h.persistAndFlush();
            SealKey key = CaseSeal.of(c);
            commit.record(h.uri(), "put hold " + h.id + " on " + h.scope + " " + h.range() + "; " + key.sealed("target", target)
                    + "; " + key.sealed("reason", reason));
            return HoldView.of(h);
        });
    }

    /** Widens the time range (an earlier start, a later end or none); a narrower range is refused. */
    public HoldView widen(long caseId, long holdId, Staff staff, String fromText, String toText, ChangeRecorder recorder) {
        Instant from = fromText == null || fromText.isBlank() ? null : time("from", fromText);
        boolean noEnd = toText != null && toText.strip().equalsIgnoreCase("none");
        Instant to = toText == null || toText.isBlank() || noEnd ? null : time("to", toText);
        return change(caseId, holdId, staff, h -> {
            Instant newFrom = from == null ? h.from : from;
            Instant newTo = noEnd ? null : to == null ? h.to : to;
            if (newFrom.isAfter(h.from) || (h.to == null && newTo != null) || (h.to != null && newTo != null && newTo.isBefore(h.to))) {
                throw CaseRefusal.conflict("a hold is only ever widened; to hold less, release it (two people) and put a new one");
            }
            range(newFrom, newTo);
            String was = h.range();
            h.from = newFrom;
            h.to = newTo;
            return "widened hold " + h.id + "; was " + was + "; now " + h.range();
        }, recorder);
    }

    public HoldView askRelease(long caseId, long holdId, Staff staff, String reasonText, ChangeRecorder recorder) {
        String reason = Checked.text("a reason for the release", reasonText, 4096);
        return change(caseId, holdId, staff, h -> {
            if (h.releaseAskedAt != null) {
                throw CaseRefusal.conflict("the release of hold " + holdId + " was already asked for by " + h.releaseAskedBy);
            }
            h.releaseAskedBy = staff.subject();
            h.releaseAskedAt = Instant.now();
            h.releaseReason = reason;
            return "asked to release hold " + h.id + "; " + CaseSeal.of(h.auditCase).sealed("reason", reason)
                    + "; another member of staff must release it";
        }, recorder);
    }

    public HoldView release(long caseId, long holdId, Staff staff, ChangeRecorder recorder) {
        return change(caseId, holdId, staff, h -> {
            if (h.releaseAskedAt == null) {
                throw CaseRefusal.conflict("nobody has asked to release hold " + holdId + ": ask first, then a second person releases it");
            }
            if (h.releaseAskedBy.equals(staff.subject())) {
                throw CaseRefusal.conflict("you asked for the release of hold " + holdId
                        + ": a second member of staff must release it (four eyes)");
            }
            h.releasedBy = staff.subject();
            h.releasedAt = Instant.now();
            return "released hold " + h.id + " as asked by " + h.releaseAskedBy + " at " + h.releaseAskedAt;
        }, recorder);
    }

    /** Reads the hold locked (one change at a time), refuses a released one, changes, records, commits. */
    private HoldView change(long caseId, long holdId, Staff staff, Function<LegalHold, String> change, ChangeRecorder recorder) {
        return ChangeCommit.run(recorder, commit -> {
            Cases.visible(caseId, staff);
            LegalHold h = LegalHold.findById(holdId, LockModeType.PESSIMISTIC_WRITE);
            if (h == null || h.auditCase.id != caseId) {
                throw new CaseRefusal(404, "not-found", "case " + caseId + " has no hold " + holdId);
            }
            if (h.released()) {
                throw CaseRefusal.conflict("hold " + holdId + " was released by " + h.releasedBy + " at " + h.releasedAt);
            }
            String what = change.apply(h);
            h.persistAndFlush();
            commit.record(h.uri(), what);
            return HoldView.of(h);
        });
    }

    private static HoldScope scope(String text) {
        try {
            return HoldScope.valueOf(Checked.text("a scope (CASE, SUBJECT or URI_PREFIX)", text, 16).toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            // What was typed is not repeated: the refusal is on record, and what staff type into a case stays in it.
            throw CaseRefusal.invalid("scope must be CASE, SUBJECT or URI_PREFIX");
        }
    }

    private static Instant time(String name, String text) {
        Instant t;
        try {
            t = Instant.parse(text.strip());
        } catch (DateTimeParseException e) {
            throw CaseRefusal.invalid("'" + name + "' is not an ISO-8601 instant (2026-01-01T00:00:00Z)");
        }
        if (!AuditQuery.askable(t)) {
            throw CaseRefusal.invalid("'" + name + "' is outside " + AuditQuery.TIMES);
        }
        return t;
    }

    private static void range(Instant from, Instant to) {
        if (to != null && !to.isAfter(from)) {
            throw CaseRefusal.invalid("'to' must be after 'from'");
        }
    }
}
