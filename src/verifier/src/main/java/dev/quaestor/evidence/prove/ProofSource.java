package dev.quaestor.evidence.prove;

import dev.quaestor.evidence.CanonicalRecord;
import dev.quaestor.evidence.Checkpoint;
import dev.quaestor.evidence.Decimal;
import dev.quaestor.evidence.ExportSink;
import dev.quaestor.evidence.Hex;
import dev.quaestor.evidence.Plain;
import dev.quaestor.evidence.SignedNote;
import dev.quaestor.evidence.check.LogVerifier;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Predicate;

/**
 * Reads an export to make proofs from it: per log, its checkpoint notes, and its tree rebuilt from
 * the records ({@link LogTree}), with the canonical bytes of the records asked for. It does not verify
 * the export (that is {@link LogVerifier}'s job); a proof made from a damaged export does not check.
 */
public final class ProofSource implements ExportSink {

    /** A record asked for: where it is, and its canonical bytes (what its proof carries). */
    public record Found(String log, long seq, long line, byte[] canonical) {
    }

    /** What the export holds for one log. */
    public static final class Log {
        public final String name;
        public final TreeMap<Long, String> notes = new TreeMap<>();
        final Map<Long, byte[]> storedNodes = new HashMap<>();
        final Map<Long, String> markers = new HashMap<>();
        public LogTree tree;
        /** Why the log's tree could not be rebuilt (the records are not in order, or their start is not known). */
        public String unusable;

        Log(String name) {
            this.name = name;
        }

        /** The origin line of the log's checkpoints, or null if the export has none. */
        public String origin() {
            return notes.isEmpty() ? null : notes.firstEntry().getValue().substring(0, notes.firstEntry().getValue().indexOf('\n'));
        }
    }

    private final Predicate<CanonicalRecord> wanted;
    private final Map<String, Set<Long>> sizesToKeep;
    private final Map<String, Log> logs = new TreeMap<>();
    private final List<Found> found = new ArrayList<>();

    /**
     * @param wanted the records to keep (and prove)
     * @param sizesToKeep per log, tree sizes that proofs will end at, beyond the checkpoints' sizes
     */
    public ProofSource(Predicate<CanonicalRecord> wanted, Map<String, Set<Long>> sizesToKeep) {
        this.wanted = wanted;
        this.sizesToKeep = sizesToKeep;
    }

    public Map<String, Log> logs() {
        return logs;
    }

    public List<Found> found() {
        return found;
    }

    @Override
    public void checkpoint(String log, long size, String note, long line) {
        log(log).notes.put(size, note);
    }

    @Override
    public void archive(String log, long seq, String hash, long line) {
        log(log).markers.put(seq, hash);
    }

    @Override
    public void node(String log, int level, long index, String hash, long line) {
        if (Hex.isHash(hash) && index < (1L << 57) >>> level) {
            log(log).storedNodes.put((long) level << 57 | index, Hex.hash(hash));
        }
    }

    @Override
    public void record(CanonicalRecord r, String storedHash, long line) {
        String name = r.log();
        if (name == null || r.bytes() == null) {
            return;
        }
        Log log = log(name);
        if (log.unusable != null) {
            return;
        }
        long seq = Decimal.parse(r.seq());
        if (log.tree == null) {
            log.tree = start(log, seq, line);
            if (log.tree == null) {
                return;
            }
        }
        if (seq != log.tree.size() + 1) {
            log.unusable = "its records are not in order at line " + Plain.n(line) + " (seq " + r.seq() + " after "
                    + Plain.n(log.tree.size()) + ")";
            return;
        }
        byte[] canonical = r.bytes();
        if (wanted.test(r)) {
            log.tree.keepLeaf(seq - 1);
            found.add(new Found(name, seq, line, canonical));
        }
        log.tree.append(r.leaf());
    }

    /** The log's tree, starting at seq 1 or after the records the export does not hold (rebuilt from stored nodes). */
    private LogTree start(Log log, long firstSeq, long line) {
        LogTree tree;
        if (firstSeq == 1) {
            tree = new LogTree();
        } else if (firstSeq > 1) {
            long start = firstSeq - 1;
            String marker = log.markers.get(start);
            try {
                tree = new LogTree(start, (level, index) -> {
                    byte[] h = log.storedNodes.get((long) level << 57 | index);
                    if (h != null) {
                        return h;
                    }
                    if (level == 0 && index == start - 1 && Hex.isHash(marker)) {
                        return Hex.hash(marker);
                    }
                    throw new NoSuchElementException("node " + level + "/" + index);
                });
            } catch (NoSuchElementException e) {
                log.unusable = "it starts at seq " + Plain.n(firstSeq) + " and the export lacks the stored nodes of the records before";
                return null;
            }
        } else {
            log.unusable = "the record on line " + Plain.n(line) + " has no valid seq";
            return null;
        }
        for (long size : log.notes.keySet()) {
            tree.keepSize(size);
        }
        for (long size : sizesToKeep.getOrDefault(log.name, Set.of())) {
            tree.keepSize(size);
        }
        return tree;
    }

    /** A checkpoint note's parts, its signature not checked (whoever checks the proof checks it). */
    public static Checkpoint unverified(String note) {
        int split = note.lastIndexOf("\n\n");
        try {
            if (split < 0) {
                throw new SignedNote.Refused("not a signed note");
            }
            return Checkpoint.parse(note.substring(0, split + 1), note);
        } catch (SignedNote.Refused e) {
            return null;
        }
    }

    private Log log(String name) {
        return logs.computeIfAbsent(name, Log::new);
    }
}
