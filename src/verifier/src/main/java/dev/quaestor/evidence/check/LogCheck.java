package dev.quaestor.evidence.check;

import dev.quaestor.evidence.CanonicalRecord;
import dev.quaestor.evidence.Decimal;
import dev.quaestor.evidence.Frontier;
import dev.quaestor.evidence.Hex;
import dev.quaestor.evidence.Plain;
import dev.quaestor.evidence.RecordFormat;
import dev.quaestor.evidence.v1.V1Chain;
import dev.quaestor.evidence.v1.V1Record;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.TreeMap;

/**
 * The checks of one log, fed in export order (its verified checkpoints, archive markers and stored
 * nodes, then its records). It stops at the log's first broken record and says where it is.
 *
 * <p>Per record: its seq follows the previous one; its content hashes to its stored hash (the leaf
 * hash; a log begun in version 1 has its own checks, {@link V1Chain}); its leaf is appended to the
 * tree, and every stored node the append completes must equal it; at every checkpoint's size the
 * tree's root must equal the signed root. A checkpoint whose time-stamp token was verified extends how
 * far an outside party, the time-stamping authority, vouches for the records ({@code anchoredThrough}).
 */
final class LogCheck {

    /** A checkpoint whose signature (by a trusted key) and origin were verified; its verified time-stamp, if any. */
    private record Signed(long size, byte[] root, long line, TimeStampCheck.Stamp stamp) {
    }

    private record Marker(long seq, String hash, long line) {
    }

    /** A stored node: the hash of records {@code first()} to {@code last()}. */
    private record Stored(int level, long index, byte[] hash, long line) {
        long first() {
            return (index << level) + 1;
        }

        long last() {
            return (index + 1) << level;
        }
    }

    /** Node indexes are kept below this, so that (index, level) fits one long. */
    private static final long MAX_INDEX = 1L << 57;

    final String log;
    private final boolean partial;
    /** Whether time-stamp tokens were checked (TSA roots were pinned). */
    private final boolean stamped;
    private final List<Problem> problems = new ArrayList<>();
    private final List<String> warnings = new ArrayList<>();

    private final TreeMap<Long, Signed> checkpoints = new TreeMap<>();
    /** The part of the log in format version 1, if any. */
    private final V1Chain v1 = new V1Chain();
    private final List<Marker> markers = new ArrayList<>();
    private final Map<Long, Stored> nodes = new HashMap<>();
    private boolean leafNodes;

    private boolean started;
    private Problem broken;
    /** The tree of the records so far; null when it cannot be rebuilt (the export starts mid-log without nodes). */
    private Frontier tree;
    private long firstSeq;
    private long lastSeq;
    private long records;
    private boolean v1Seen;
    /** A record in version 2 or 3 (after which version 1 may not follow). */
    private boolean v2Seen;
    /** For the summary: which of the later versions the log holds. */
    private boolean exactlyV2Seen;
    private boolean v3Seen;
    private long nextCheckpoint = Long.MAX_VALUE;
    private long lastMatched;
    private int matched;
    private long signedThrough;
    private int anchors;
    private long anchoredThrough;
    private TimeStampCheck.Stamp anchoredBy;
    private long archivedThrough;
    private long nodesChecked;
    /** A stored node that does not match its records: either it or they were changed; the next checkpoint says which. */
    private Stored suspect;
    private final Frontier.CompletedNode onCompleted = this::completed;

    LogCheck(String log, boolean partial, boolean stamped) {
        this.log = log;
        this.partial = partial;
        this.stamped = stamped;
    }

    // ---- what comes before the records ----

    /** A checkpoint whose signature and origin were verified; {@code stamp}: its verified time-stamp, or null. */
    void checkpoint(long size, byte[] root, long line, TimeStampCheck.Stamp stamp) {
        Signed earlier = checkpoints.get(size);
        if (earlier != null) {
            if (!Arrays.equals(earlier.root, root)) {
                problems.add(new Problem(log, size, line, "two signed checkpoints of log " + log + " for " + Plain.n(size)
                        + " records (lines " + Plain.n(earlier.line) + " and " + Plain.n(line)
                        + ") have different roots: two different histories of the log were signed"));
            }
            return;
        }
        if (started && size <= lastSeq) {
            outOfOrder("checkpoint", line);
            return;
        }
        checkpoints.put(size, new Signed(size, root, line, stamp));
        if (started && size < nextCheckpoint) {
            nextCheckpoint = size;
        }
    }

    /** A version-1 checkpoint, verified: it pins the stored hash of record {@code seq}. */
    void pin(long seq, String hash, long line) {
        if (v1.isPinned(seq)) {
            String conflict = v1.conflict(seq, hash, line, log);
            if (conflict != null) {
                problems.add(new Problem(log, seq, line, conflict));
            }
            return;
        }
        if (started && seq <= lastSeq) {
            outOfOrder("checkpoint", line);
            return;
        }
        v1.pin(seq, hash, line);
    }

    void marker(long seq, String hash, long line) {
        if (started) {
            outOfOrder("archive marker", line);
            return;
        }
        markers.add(new Marker(seq, hash, line));
    }

    void node(int level, long index, String hash, long line) {
        if (started) {
            outOfOrder("stored node", line);
            return;
        }
        if (!Hex.isHash(hash) || index >= MAX_INDEX >>> level) {
            problems.add(new Problem(log, 0, line, "the stored node on line " + Plain.n(line) + " of log " + log
                    + " is damaged: its hash or position is not valid"));
            return;
        }
        nodes.put(key(level, index), new Stored(level, index, Hex.hash(hash), line));
        leafNodes |= level == 0;
    }

    private void outOfOrder(String what, long line) {
        problems.add(new Problem(log, 0, line, "the " + what + " on line " + Plain.n(line) + " of log " + log
                + " comes after records it concerns; an export lists checkpoints, markers and nodes before the records"));
    }

    // ---- the records ----

    void record(CanonicalRecord r, String storedHash, long line) {
        records++;
        if (broken != null) {
            return; // the first break is reported; what follows it is not evidence of anything more
        }
        String version = r.version();
        long seq = Decimal.parse(r.seq());
        if (seq < 1) {
            fail(0, line, "the record on line " + Plain.n(line) + " of log " + log + " has no valid seq (\""
                    + r.seq() + "\"): it was damaged");
            return;
        }
        if (!started) {
            start(seq, line);
            if (broken != null) {
                return;
            }
        }
        if (seq != lastSeq + 1) {
            order(seq, line);
            return;
        }
        byte[] leaf;
        if (RecordFormat.V2.equals(version) || RecordFormat.V3.equals(version)) {
            if (RecordFormat.V3.equals(version)) {
                v3Seen = true;
            } else {
                exactlyV2Seen = true;
            }
            leaf = v2(r, storedHash, seq, line);
        } else if (V1Record.VERSION.equals(version)) {
            leaf = v1(r, storedHash, seq, line);
        } else {
            fail(seq, line, record(seq, line) + " is in a format this verifier does not know (v=" + version
                    + "): it was damaged, or a newer verifier is needed");
            return;
        }
        if (leaf == null) {
            return;
        }
        lastSeq = seq;
        if (tree != null) {
            if (leafNodes) {
                Stored n = nodes.remove(key(0, seq - 1));
                if (n != null) {
                    compare(n, leaf);
                }
            }
            tree.append(leaf, nodes.isEmpty() ? null : onCompleted);
            if (seq == nextCheckpoint) {
                checkAt(seq, line);
            }
        }
    }

    private byte[] v2(CanonicalRecord r, String storedHash, long seq, long line) {
        v2Seen = true; // a log begun in version 1 continues in version 2; its tree carries on
        if (unknownField(r, seq, line)) {
            return null;
        }
        byte[] leaf = r.leaf();
        if (!Hex.matches(storedHash, leaf)) {
            fail(seq, line, changed(seq, line));
            return null;
        }
        return leaf;
    }

    private byte[] v1(CanonicalRecord r, String storedHash, long seq, long line) {
        if (v2Seen) {
            fail(seq, line, record(seq, line) + " is in format version 1 but follows records in version 2 or 3: a log moves"
                    + " from version 1 to later versions, never back, so records were moved or inserted");
            return null;
        }
        v1Seen = true;
        if (unknownField(r, seq, line)) {
            return null;
        }
        String failure = v1.check(r, storedHash, seq, record(seq, line));
        if (failure != null) {
            fail(seq, line, failure);
            return null;
        }
        if (v1.isPinned(seq)) {
            signedThrough = Math.max(signedThrough, seq);
            matched++;
        }
        return r.leaf();
    }

    private boolean unknownField(CanonicalRecord r, long seq, long line) {
        if (r.unknownField() == null) {
            return false;
        }
        fail(seq, line, record(seq, line) + " holds a field the format does not define (\"" + r.unknownField()
                + "\"), which its hash would not cover: it was changed after it was written");
        return true;
    }

    private void order(long seq, long line) {
        if (seq <= lastSeq) {
            String before = lastSeq == archivedThrough && records == 1 ? "the archive marker at seq " + Plain.n(lastSeq)
                    : "seq " + Plain.n(lastSeq);
            fail(seq, line, "records of log " + log + " are out of order or repeated: seq " + Plain.n(seq) + " (line "
                    + Plain.n(line) + ") comes after " + before);
        } else if (lastSeq == 0 && !partial) {
            fail(1, line, "records are missing from log " + log + ": its first record is seq " + Plain.n(seq) + " (line "
                    + Plain.n(line) + "), not 1 (if the export covers only part of the log, say --partial)");
        } else {
            fail(lastSeq + 1, line, "records are missing from log " + log + ": seq " + Plain.n(seq) + " (line " + Plain.n(line)
                    + ") follows seq " + Plain.n(lastSeq) + (seq == lastSeq + 2 ? "; record " + Plain.n(lastSeq + 1) + " is gone"
                    : "; records " + Plain.n(lastSeq + 1) + " to " + Plain.n(seq - 1) + " are gone"));
        }
    }

    private void completed(int level, long index, byte[] hash) {
        Stored n = nodes.remove(key(level, index));
        if (n != null) {
            compare(n, hash);
        }
    }

    private void compare(Stored n, byte[] hash) {
        nodesChecked++;
        if (suspect == null && !Arrays.equals(n.hash, hash)) {
            suspect = n;
        }
    }

    /** The tree has reached a checkpoint's size: its root must be the signed one. */
    private void checkAt(long size, long line) {
        Signed cp = checkpoints.get(size);
        Long next = checkpoints.higherKey(size);
        nextCheckpoint = next == null ? Long.MAX_VALUE : next;
        if (Arrays.equals(tree.root(), cp.root)) {
            matched++;
            lastMatched = size;
            signedThrough = Math.max(signedThrough, size);
            anchored(cp);
            if (suspect != null) {
                Stored n = suspect;
                suspect = null;
                fail(n.first(), n.line, "the stored node on line " + Plain.n(n.line) + " (records " + Plain.n(n.first()) + " to "
                        + Plain.n(n.last()) + " of log " + log + ") was changed: it does not match those records, which match the"
                        + " signed checkpoint at " + Plain.n(size) + " records (line " + Plain.n(cp.line) + ")");
            }
            return;
        }
        long from = suspect != null ? suspect.first() : lastMatched + 1;
        long to = suspect != null ? suspect.last() : size;
        suspect = null;
        fail(size, line, "the checkpoint at " + Plain.n(size) + " records (line " + Plain.n(cp.line) + ") does not match the"
                + " records of log " + log + ": a record between " + Plain.n(from) + " and " + Plain.n(to)
                + " was changed, inserted or removed (found at record " + Plain.n(size) + ", line " + Plain.n(line) + ")");
    }

    /** A checkpoint matched the records: if it is time-stamped, the TSA vouches for them up to its size. */
    private void anchored(Signed cp) {
        if (cp.stamp != null) {
            anchors++;
            anchoredThrough = cp.size;
            anchoredBy = cp.stamp;
        }
    }

    /** A problem that does not stop the records' checks (a time-stamp that does not vouch for its checkpoint). */
    void problem(Problem p) {
        problems.add(p);
    }

    // ---- where the records start ----

    /**
     * Before the first record (or at the end, if there is none): where the log starts. From seq 1 with an
     * empty tree; after an archive marker that a signed checkpoint vouches for (the tree rebuilt from
     * the marker's stored nodes); or, for a partial export, after the records it does not hold.
     */
    private void start(long firstRecord, long line) {
        started = true;
        Marker accepted = null;
        Frontier acceptedTree = null;
        boolean acceptedV1 = false;
        for (Marker m : markers) {
            boolean pinned = v1.pins(m.seq, m.hash);
            Frontier t = prefixTree(m.seq, pinned ? null : m.hash);
            Signed cp = checkpoints.get(m.seq);
            boolean v2 = cp != null && t != null && Arrays.equals(t.root(), cp.root);
            if (!pinned && !v2) {
                fail(m.seq, m.line, "the archive marker on line " + Plain.n(m.line) + " says records 1 to " + Plain.n(m.seq)
                        + " of log " + log + " were archived, but no signed checkpoint vouches for it: records may have been"
                        + " deleted and the marker made up");
                return;
            }
            if (accepted == null || m.seq > accepted.seq) {
                accepted = m;
                acceptedTree = t;
                acceptedV1 = pinned;
            }
        }
        if (accepted != null) {
            lastSeq = accepted.seq;
            archivedThrough = accepted.seq;
            signedThrough = accepted.seq;
            v1.continueAfter(acceptedV1 ? accepted.hash : null);
            tree = acceptedTree;
            if (tree != null && checkpoints.containsKey(lastSeq)) {
                matched++;
                anchored(checkpoints.get(lastSeq));
            }
        } else {
            tree = new Frontier();
        }
        if (firstRecord > lastSeq + 1) {
            if (!partial) {
                order(firstRecord, line);
                return;
            }
            lastSeq = firstRecord - 1;
            v1.continueAfter(null);
            warnings.add("log " + log + ": the export starts at seq " + Plain.n(firstRecord) + "; the records before it are"
                    + " not in the export and were not checked");
            tree = prefixTree(lastSeq, null);
            Signed cp = checkpoints.get(lastSeq);
            if (tree != null && cp != null) {
                if (!Arrays.equals(tree.root(), cp.root)) {
                    fail(lastSeq, cp.line, "the stored nodes of log " + log + " for the records before the export (1 to "
                            + Plain.n(lastSeq) + ") do not match the signed checkpoint at " + Plain.n(lastSeq) + " records (line "
                            + Plain.n(cp.line) + "): they were changed");
                    return;
                }
                matched++;
                signedThrough = lastSeq;
                anchored(cp);
            }
        }
        firstSeq = lastSeq + 1;
        lastMatched = lastSeq;
        Long next = checkpoints.higherKey(lastSeq);
        nextCheckpoint = next == null ? Long.MAX_VALUE : next;
    }

    /** The tree of the first {@code size} records, from stored nodes (and the last leaf, if known); null if they are missing. */
    private Frontier prefixTree(long size, String lastLeafHex) {
        try {
            return Frontier.of(size, (level, index) -> {
                Stored n = nodes.get(key(level, index));
                if (n != null) {
                    return n.hash;
                }
                if (level == 0 && index == size - 1 && Hex.isHash(lastLeafHex)) {
                    return Hex.hash(lastLeafHex);
                }
                throw new NoSuchElementException();
            });
        } catch (NoSuchElementException e) {
            return null;
        }
    }

    // ---- the end ----

    /** @param refused whether some of the log's checkpoints were refused (then an unsigned tail says nothing new) */
    void finish(boolean refused) {
        if (!started) {
            start(0, 0);
        }
        if (broken == null && suspect != null) {
            Stored n = suspect;
            fail(n.first(), n.line, "the stored node on line " + Plain.n(n.line) + " does not match records " + Plain.n(n.first())
                    + " to " + Plain.n(n.last()) + " of log " + log + ": the node or one of those records was changed (no later"
                    + " signed checkpoint settles which)");
        }
        long covered = Math.max(checkpoints.isEmpty() ? 0 : checkpoints.lastKey(), v1.lastPinned());
        if (broken == null && covered > lastSeq) {
            Signed cp = checkpoints.get(covered);
            long cpLine = cp != null ? cp.line : v1.lineOf(covered);
            if (partial) {
                warnings.add("log " + log + ": checkpoints up to " + Plain.n(covered) + " records cover records after the export's"
                        + " last (seq " + Plain.n(lastSeq) + "); they were not checked");
            } else {
                fail(lastSeq + 1, cpLine, "records are missing at the end of log " + log + ": the export ends at seq "
                        + Plain.n(lastSeq) + ", but a signed checkpoint (line " + Plain.n(cpLine) + ") covers " + Plain.n(covered)
                        + " records" + (cp != null && cp.stamp != null ? ", and a time-stamping authority (" + cp.stamp.tsa()
                        + ") saw that checkpoint at " + cp.stamp.time() : ""));
            }
        }
        if (broken == null && !partial) {
            for (Stored n : nodes.values()) {
                if (n.last() > lastSeq) {
                    fail(lastSeq + 1, n.line, "records are missing at the end of log " + log + ": the export ends at seq "
                            + Plain.n(lastSeq) + ", but its stored node on line " + Plain.n(n.line) + " covers records "
                            + Plain.n(n.first()) + " to " + Plain.n(n.last()));
                    break;
                }
            }
        }
        if (broken == null && tree == null && records > 0 && !checkpoints.isEmpty() && checkpoints.lastKey() > firstSeq - 1) {
            warnings.add("log " + log + ": its checkpoints could not be checked: the export holds neither the records before seq "
                    + Plain.n(firstSeq) + " nor their stored nodes");
        }
        if (broken == null && !refused && records > 0 && lastSeq > signedThrough) {
            long from = Math.max(signedThrough, firstSeq - 1) + 1;
            warnings.add("log " + log + ": the last " + Plain.n(lastSeq - from + 1) + " record(s) (seq " + Plain.n(from) + " to "
                    + Plain.n(lastSeq) + ") are not yet covered by a signed checkpoint: they are in order and match their hashes,"
                    + " but nothing signed vouches for them yet");
        }
        if (broken == null && stamped && records > 0) {
            if (anchors == 0) {
                warnings.add("log " + log + ": no checkpoint of its records carries a valid time-stamp token: only the log's own"
                        + " signing key vouches for them");
            } else if (lastSeq > anchoredThrough) {
                warnings.add("log " + log + ": time-stamps vouch for records up to seq " + Plain.n(anchoredThrough) + " ("
                        + anchoredBy.tsa() + " saw them by " + anchoredBy.time() + "); the last " + Plain.n(lastSeq - anchoredThrough)
                        + " record(s) rest on the log's signing key alone: whoever holds it could have rewritten or removed them,"
                        + " and an export would not show it");
            }
        }
    }

    List<Problem> problems() {
        var out = new ArrayList<Problem>();
        if (broken != null) {
            out.add(broken);
        }
        out.addAll(problems);
        return out;
    }

    List<String> warnings() {
        return warnings;
    }

    Report.Summary summary() {
        // Versions 2 and 3 mix freely (a record is written in the lowest that holds its fields); 1 only comes first.
        String later = v3Seen ? (exactlyV2Seen ? "2 and 3" : "3") : exactlyV2Seen ? "2" : null;
        String formats = v1Seen ? (later == null ? "1" : "1 then " + later) : later == null ? "-" : later;
        return new Report.Summary(log, records, records == 0 ? 0 : firstSeq, lastSeq, formats, matched, signedThrough,
                anchors, anchoredThrough, anchoredBy == null ? null : anchoredBy.time(), archivedThrough, nodesChecked, broken != null);
    }

    // ---- words ----

    private void fail(long seq, long line, String message) {
        if (broken != null) {
            return;
        }
        if (suspect != null) {
            // A stored node before this point already disagreed with its records: that is the first sign.
            Stored n = suspect;
            suspect = null;
            broken = new Problem(log, n.first(), n.line, "the stored node on line " + Plain.n(n.line) + " does not match records "
                    + Plain.n(n.first()) + " to " + Plain.n(n.last()) + " of log " + log + ": the node or one of those records was"
                    + " changed; then: " + message);
            return;
        }
        broken = new Problem(log, seq, line, message);
    }

    private String record(long seq, long line) {
        return "record " + Plain.n(seq) + " of log " + log + " (line " + Plain.n(line) + ")";
    }

    private String changed(long seq, long line) {
        return record(seq, line) + " was changed after it was written: its content no longer matches its hash";
    }

    /** The level in the top bits, so that the index's low bits spread the keys over a hash map. */
    private static long key(int level, long index) {
        return (long) level << 57 | index;
    }
}
