package dev.quaestor.bundle;

import dev.quaestor.audit.record.AuditEvent;
import dev.quaestor.audit.AuditLog;
import dev.quaestor.audit.read.AuditProofs;
import dev.quaestor.audit.read.AuditQuery;
import dev.quaestor.audit.read.AuditQueryTimeout;
import dev.quaestor.audit.record.AuditRow;
import dev.quaestor.audit.read.AuditSearch;
import dev.quaestor.audit.record.Caller;
import dev.quaestor.audit.record.SealKey;
import dev.quaestor.evidence.Hex;
import dev.quaestor.evidence.TreeHash;
import dev.quaestor.evidence.bundle.BundleWriter;
import dev.quaestor.policy.history.StoredRevision;
import io.quarkus.narayana.jta.QuarkusTransaction;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;

/**
 * Makes evidence bundles (docs/audit-format.md, section 7): the selected requests' records, each with its proof,
 * the checkpoints and their time-stamp tokens, consistency proofs, and the policy files of each revision the
 * records name, in one ZIP a recipient checks offline. The making is on record under the request id of the call
 * that asked for it: once made, a second record of that request carries the bundle's size, its record count and
 * its SHA-256, committed before the bundle is handed out; a bundle that cannot be made is on record with why, and so
 * is one whose reading failed part-way (a read past the audit query timeout, a database error) before the failure
 * is answered.
 */
@ApplicationScoped
public class EvidenceBundles {

    /** Who asks for a bundle: the caller as recorded and the request id its call's record has. */
    public record Maker(Caller caller, String requestId) {
    }

    /** Why a bundle was not made, by kind, with the HTTP status that answers it (as the proof of one request's is). */
    public enum NotMade {
        /** No record has a request id asked for, or the search finds no request. */
        NOTHING_FOUND(404),
        /** A record is not under a signed checkpoint yet: asked again in a few seconds, the bundle can be made. */
        NOT_YET(409),
        /** A record can never be proven: it is in format 1, or was changed in the database since it was written. */
        UNPROVABLE(409),
        /** The search finds more records or requests than a bundle holds: narrowed, it can be made. */
        TOO_MANY(400);

        private final int status;

        NotMade(int status) {
            this.status = status;
        }

        public int status() {
            return status;
        }
    }

    /**
     * A bundle made: its bytes and SHA-256 (hex), how many records of which requests; or why it was not made
     * ({@code refused} in words, {@code notMade} by kind).
     */
    public record Made(byte[] zip, String sha256, int records, List<String> requestIds, String refused, NotMade notMade) {
        public boolean made() {
            return refused == null;
        }

        public int requests() {
            return requestIds.size();
        }
    }

    private final AuditProofs proofs;
    private final AuditSearch search;
    private final AuditLog log;

    EvidenceBundles(AuditProofs proofs, AuditSearch search, AuditLog log) {
        this.proofs = proofs;
        this.search = search;
        this.log = log;
    }

    /** Makes the bundle of {@code selection} for {@code maker}, and puts its making (or why not) on record. */
    public Made make(BundleSelection selection, Maker maker) {
        Made made;
        try {
            made = build(selection, maker);
        } catch (RuntimeException e) {
            failed(maker, recorded(selection), e);
            throw e;
        }
        // A search's bundle names the requests it found, so that its record says what the bundle holds, not only what was asked.
        String found = made.made() && selection.requestIds() == null ? "; found requests " + String.join(", ", made.requestIds()) : "";
        var event = made(maker).detail(recorded(selection) + found + (made.made() ? "" : "; not made: " + made.refused()));
        if (made.made()) {
            event.outcome("ok").bytes((long) made.zip().length).items(made.records()).contentSha256(made.sha256());
        } else {
            event.outcome("not-made");
        }
        log.append(event.build());
        return made;
    }

    /** Puts on record that a bundle asked for was not made, because what was asked for could not be read. */
    public void notMade(Maker maker, String why) {
        log.append(made(maker).outcome("not-made").detail("not made: " + why).build());
    }

    /**
     * Puts on record that a bundle asked for was not made because reading it failed part-way ({@code e}, which the
     * caller then throws): {@code selection} as {@link #recorded} says it, and the failure by its kind only (its
     * message may hold what was read). A record that cannot be written does not hide {@code e}.
     */
    public void failed(Maker maker, String selection, RuntimeException e) {
        String why = e instanceof AuditQueryTimeout ? "the audit log's database did not finish a read within the audit query timeout"
                : "reading it failed (" + e.getClass().getSimpleName() + ")";
        try {
            log.append(made(maker).outcome("not-made").detail((selection == null ? "" : selection + "; ") + "not made: " + why).build());
        } catch (RuntimeException unrecorded) {
            e.addSuppressed(unrecorded);
        }
    }

    private static AuditEvent.Builder made(Maker maker) {
        return AuditEvent.of(AuditEvent.Kind.AUDIT_READ, maker.requestId()).caller(maker.caller()).method("audit/bundle/made").decision("ALLOW");
    }

    private Made build(BundleSelection selection, Maker maker) {
        List<String> requests = selection.requestIds();
        if (requests == null) {
            AuditQuery q = selection.search();
            var page = search.search(new AuditQuery(q.subject(), q.client(), q.tenant(), q.uriPrefix(), q.action(), q.decision(),
                    q.outcome(), q.kind(), q.from(), q.to(), null, BundleSelection.MAX_SEARCH_RECORDS));
            if (page.nextCursor() != null) {
                return refused(NotMade.TOO_MANY, "the search finds more than " + BundleSelection.MAX_SEARCH_RECORDS + " records: narrow it");
            }
            var ids = new LinkedHashSet<String>();
            for (AuditRow r : page.records()) {
                if (r.request() != null) {
                    ids.add(r.request());
                }
            }
            if (ids.isEmpty()) {
                return refused(NotMade.NOTHING_FOUND, "the search finds no request");
            }
            if (ids.size() > BundleSelection.MAX_REQUESTS) {
                return refused(NotMade.TOO_MANY, "the search finds " + ids.size() + " requests, more than " + BundleSelection.MAX_REQUESTS + ": narrow it");
            }
            requests = List.copyOf(ids);
        }
        AuditProofs.Proven proven = proofs.proven(new LinkedHashSet<>(requests));
        if (proven.unavailable() != null) {
            return refused(switch (proven.gap()) {
                case NO_RECORD -> NotMade.NOTHING_FOUND;
                case NOT_YET -> NotMade.NOT_YET;
                case NEVER -> NotMade.UNPROVABLE;
            }, proven.unavailable());
        }
        var about = new BundleWriter.About(Instant.now(), maker.caller().subject(), maker.requestId(), selection.forCase(),
                selection.caseSeal() == null ? null : selection.caseSeal().hex(), describe(selection));
        byte[] zip = BundleWriter.write(about, proven.records(), (logId, from, to) -> proofs.consistency(logId, from, to)
                .orElseThrow(() -> new IllegalStateException("no consistency proof of log " + logId + " from " + from + " to " + to)),
                EvidenceBundles::policyFiles);
        return new Made(zip, Hex.of(TreeHash.sha256(zip)), proven.records().size(), List.copyOf(new LinkedHashSet<>(requests)), null, null);
    }

    private static Made refused(NotMade kind, String why) {
        return new Made(null, null, 0, List.of(), why, kind);
    }

    /**
     * The files of a policy revision as they are stored; null if it was not kept. Not checked here: a bundle carries
     * what the database holds, and {@code bundle check} hashes it against the revision the records name, so files
     * changed in the database are shown to the bundle's reader as changed, with the rest of the evidence.
     */
    private static Map<String, String> policyFiles(String revision) {
        return QuarkusTransaction.requiringNew().call(() -> {
            StoredRevision r = StoredRevision.findById(revision);
            return r == null ? null : r.sortedFiles();
        });
    }

    /** The selection in words, as the manifest and the record say it. */
    static String describe(BundleSelection s) {
        String what = s.requestIds() != null ? "requests " + String.join(", ", s.requestIds()) : "the requests of the search " + search(s.search());
        return s.forCase() == null ? what : what + " (case " + s.forCase() + ")";
    }

    /**
     * The selection as its record says it: as {@link #describe}, but the case it is for only by its name sealed under
     * the selection's key (a case's name is its title, which only its members may read; the manifest names it in full
     * and gives the key).
     */
    static String recorded(BundleSelection s) {
        String what = s.requestIds() != null ? "requests " + String.join(", ", s.requestIds()) : "the requests of the search " + search(s.search());
        if (s.forCase() == null) {
            return what;
        }
        return what + " (for " + caseNamed(s.caseSeal(), s.forCase()) + ")";
    }

    /** A case's name as records say it: {@code a case named hmac-sha256=<hex>} under {@code key}, never the name itself. */
    public static String caseNamed(SealKey key, String name) {
        return key.sealed("a case named", name);
    }

    private static String search(AuditQuery q) {
        var parts = new ArrayList<String>();
        add(parts, "subject", q.subject());
        add(parts, "client", q.client());
        add(parts, "tenant", q.tenant());
        add(parts, "uriPrefix", q.uriPrefix());
        add(parts, "action", q.action());
        add(parts, "decision", q.decision());
        add(parts, "outcome", q.outcome());
        add(parts, "kind", q.kind());
        add(parts, "from", q.from() == null ? null : q.from().toString());
        add(parts, "to", q.to() == null ? null : q.to().toString());
        return parts.isEmpty() ? "(no filter)" : String.join(" ", parts);
    }

    private static void add(List<String> parts, String name, String value) {
        if (value != null) {
            parts.add(name + "=" + value);
        }
    }
}
