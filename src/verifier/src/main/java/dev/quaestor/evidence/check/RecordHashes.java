package dev.quaestor.evidence.check;

import dev.quaestor.evidence.CanonicalRecord;
import dev.quaestor.evidence.Hex;
import dev.quaestor.evidence.RecordFormat;
import dev.quaestor.evidence.check.Problem.Involved;
import dev.quaestor.evidence.check.Problem.Kind;
import dev.quaestor.evidence.v1.V1Chain;
import dev.quaestor.evidence.v1.V1Record;

/**
 * Each record of a log against its stored hash: versions 2 and 3 (mixed freely) by leaf hash; version 1, which only
 * comes first, by its stored hash, link and pinning checkpoints ({@link V1Chain}).
 */
final class RecordHashes {

    private final LogCheck log;
    private boolean v1Seen;
    private boolean v2Seen;
    private boolean v3Seen;

    RecordHashes(LogCheck log) {
        this.log = log;
    }

    /** The record's leaf hash; null if it does not hold (the log is told why). */
    byte[] leaf(CanonicalRecord r, String storedHash, long seq, long line) {
        String version = r.version();
        boolean v3 = RecordFormat.V3.equals(version);
        if (v3 || RecordFormat.V2.equals(version)) {
            v3Seen |= v3;
            v2Seen |= !v3;
            if (unknownField(r, seq, line)) {
                return null;
            }
            byte[] leaf = r.leaf();
            if (!Hex.matches(storedHash, leaf)) {
                log.fail(Kind.RECORD_CHANGED, seq, line, log.record(seq, line) + " was changed after it was written: its content"
                        + " no longer matches its hash", storedHash, Hex.of(leaf), Involved.record(seq, line));
                return null;
            }
            return leaf;
        }
        if (!V1Record.VERSION.equals(version)) {
            log.fail(Kind.RECORD_DAMAGED, seq, line, log.record(seq, line) + " is in a format this verifier does not know (v="
                    + version + "): it was damaged, or a newer verifier is needed", "format version 1, 2 or 3", "v=" + version,
                    Involved.record(seq, line));
            return null;
        }
        if (v2Seen || v3Seen) {
            log.fail(Kind.OUT_OF_ORDER, seq, line, log.record(seq, line) + " is in format version 1 but follows records in"
                    + " version 2 or 3: a log moves from version 1 to later versions, never back, so records were moved or inserted",
                    "format version 2 or 3", "format version 1", Involved.record(seq, line));
            return null;
        }
        v1Seen = true;
        if (unknownField(r, seq, line)) {
            return null;
        }
        V1Chain.Break b = log.v1.check(r, storedHash, seq, log.record(seq, line));
        if (b != null) {
            Kind kind = switch (b.reason()) {
                case CHANGED -> Kind.RECORD_CHANGED;
                case LINK -> Kind.LINK_BROKEN;
                default -> Kind.ROOT_MISMATCH;
            };
            Involved record = Involved.record(seq, line);
            log.fail(kind, seq, line, b.message(), b.expected(), b.found(), b.checkpointLine() == 0 ? new Involved[] {record}
                    : new Involved[] {record, Involved.v1Checkpoint(seq, b.checkpointLine())});
            return null;
        }
        if (log.v1.isPinned(seq)) {
            log.roots.signedThrough = Math.max(log.roots.signedThrough, seq);
            log.roots.matched++;
        }
        return r.leaf();
    }

    private boolean unknownField(CanonicalRecord r, long seq, long line) {
        if (r.unknownField() == null) {
            return false;
        }
        log.fail(Kind.UNKNOWN_FIELD, seq, line, log.record(seq, line) + " holds a field the format does not define (\""
                + r.unknownField() + "\"), which its hash would not cover: it was changed after it was written",
                "the fields of format version " + r.version(), "\"" + r.unknownField() + "\"", Involved.record(seq, line));
        return true;
    }

    /** The format versions the log holds, for its summary: "1", "1 then 2 and 3", "3", "-" for none. */
    String formats() {
        String later = v3Seen ? (v2Seen ? "2 and 3" : "3") : v2Seen ? "2" : null;
        return v1Seen ? (later == null ? "1" : "1 then " + later) : later == null ? "-" : later;
    }
}
