package dev.quaestor.evidence.check;

import dev.quaestor.evidence.Checkpoint;
import dev.quaestor.evidence.Frontier;
import dev.quaestor.evidence.Plain;
import dev.quaestor.evidence.check.Problem.Involved;
import dev.quaestor.evidence.check.Problem.Kind;
import dev.quaestor.evidence.check.SignedRoots.Signed;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Where a log's records start: at seq 1 with an empty tree; after an archive marker that a signed checkpoint (with the
 * stored nodes of the records archived) or a version-1 checkpoint vouches for; or, in a partial export, after the records
 * it lacks, whose stored nodes must match the checkpoint at that size. The checkpoints the person verifying kept
 * (--expect-checkpoint) must agree with those signed at their sizes, and with the stored nodes if the records start after them.
 */
final class LogStart {

    /** The records start after record {@code after}, with the tree of the records up to it (null: it cannot be rebuilt). */
    record Start(long after, Frontier tree) {
    }

    private record Marker(long seq, String hash, long line) {
    }

    private final LogCheck check;
    private final SignedRoots roots;
    private final List<Marker> markers = new ArrayList<>();
    /** Checkpoints the person verifying kept (--expect-checkpoint): each on line 0. */
    private final List<Signed> kept = new ArrayList<>();

    LogStart(LogCheck check) {
        this.check = check;
        this.roots = check.roots;
    }

    void marker(long seq, String hash, long line) {
        markers.add(new Marker(seq, hash, line));
    }

    void expect(Checkpoint cp) {
        kept.add(new Signed(cp.size(), cp.root(), 0, cp.time(), null));
    }

    /** After the latest archive marker (or at the log's start if none); null if a marker or a kept checkpoint is refused. */
    Start archived() {
        String log = check.log;
        for (Signed k : kept) {
            Signed earlier = roots.add(k);
            if (earlier != null && !Arrays.equals(earlier.root(), k.root())) {
                check.fail(Kind.SPLIT_VIEW, k.size(), earlier.line(), "the checkpoint you kept (--expect-checkpoint) and the signed"
                        + " checkpoint on line " + Plain.n(earlier.line()) + " of log " + log + ", both for " + Plain.n(k.size())
                        + " records, have different roots: the log was rewritten", LogCheck.base64(k.root()),
                        LogCheck.base64(earlier.root()), Involved.checkpoint(k.size(), 0), Involved.checkpoint(k.size(), earlier.line()));
                return null;
            }
        }
        Marker accepted = null;
        Frontier acceptedTree = null;
        boolean acceptedV1 = false;
        for (Marker m : markers) {
            boolean pinned = check.v1.pins(m.seq, m.hash);
            Frontier t = check.nodes.prefix(m.seq, pinned ? null : m.hash);
            Signed cp = roots.at(m.seq);
            if (!pinned && (cp == null || t == null || !Arrays.equals(t.root(), cp.root()))) {
                check.fail(Kind.ARCHIVE_UNVOUCHED, m.seq, m.line, "the archive marker on line " + Plain.n(m.line) + " says records 1 to "
                        + Plain.n(m.seq) + " of log " + log + " were archived, but no signed checkpoint vouches for it: records may"
                        + " have been deleted and the marker made up", cp == null ? "a signed checkpoint at " + Plain.n(m.seq)
                        + " records" : LogCheck.base64(cp.root()), cp == null ? "none" : t == null ? "no stored nodes of records 1 to "
                        + Plain.n(m.seq) : LogCheck.base64(t.root()), cp == null ? new Involved[] {new Involved("archive marker", m.line)}
                        : new Involved[] {new Involved("archive marker", m.line), Involved.checkpoint(m.seq, cp.line())});
                return null;
            }
            if (accepted == null || m.seq > accepted.seq) {
                accepted = m;
                acceptedTree = t;
                acceptedV1 = pinned;
            }
        }
        if (accepted == null) {
            return new Start(0, new Frontier());
        }
        check.v1.continueAfter(acceptedV1 ? accepted.hash : null);
        if (acceptedTree != null && roots.at(accepted.seq) != null) {
            roots.matched(roots.at(accepted.seq));
        }
        roots.signedThrough = Math.max(roots.signedThrough, accepted.seq);
        return new Start(accepted.seq, acceptedTree);
    }

    /** A partial export, after the records it lacks (up to {@code after}); null if their stored nodes do not match the checkpoint. */
    Start partial(long after) {
        String log = check.log;
        check.v1.continueAfter(null);
        check.warn("log " + log + ": the export starts at seq " + Plain.n(after + 1) + "; the records before it are"
                + " not in the export and were not checked");
        Frontier tree = check.nodes.prefix(after, null);
        Signed cp = roots.at(after);
        if (tree != null && cp != null) {
            if (!Arrays.equals(tree.root(), cp.root())) {
                check.fail(Problem.of(Kind.ROOT_MISMATCH, log, after, cp.line(), "the stored nodes of log " + log + " for the"
                        + " records before the export (1 to " + Plain.n(after) + ") do not match the signed checkpoint at "
                        + Plain.n(after) + " records (line " + Plain.n(cp.line()) + "): they were changed", LogCheck.base64(cp.root()),
                        LogCheck.base64(tree.root()), Involved.checkpoint(after, cp.line())).within(1, after));
                return null;
            }
            roots.matched(cp);
        }
        return new Start(after, tree);
    }

    /** Whether each kept checkpoint the records start after matches their stored nodes; {@code line}: the first record's. */
    boolean kept(long after, long line) {
        for (Signed k : kept) {
            Frontier t = k.size() < after ? check.nodes.prefix(k.size(), null) : null;
            if (k.size() < after && (t == null || !Arrays.equals(t.root(), k.root()))) {
                check.fail(Kind.ROOT_MISMATCH, k.size(), line, "the checkpoint you kept (--expect-checkpoint) at " + Plain.n(k.size())
                        + " records cannot be compared with log " + check.log + ": the export starts after it, at seq "
                        + Plain.n(after + 1) + (t == null ? ", without the stored nodes it needs" : ", and its stored nodes"
                        + " give another root"), LogCheck.base64(k.root()), t == null ? "no stored nodes" : LogCheck.base64(t.root()),
                        Involved.checkpoint(k.size(), 0));
                return false;
            }
        }
        return true;
    }
}
