package dev.quaestor.evidence.bundle;

import dev.quaestor.evidence.Anchor;
import dev.quaestor.evidence.Decimal;
import dev.quaestor.evidence.RecordProof;
import dev.quaestor.evidence.SignedNote;
import dev.quaestor.evidence.write.ExportWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Writes an evidence bundle (docs/audit-format.md, section 7) from the records chosen, each with its proof: the
 * records file, a proof file per record, each checkpoint the proofs lead to (as its log's key signed it) with its
 * time-stamp token beside it, a
 * consistency proof from each checkpoint of a log to the log's latest one here, the policy files of each revision
 * the records name, the README and the manifest, in one ZIP ({@link BundleZip}).
 */
public final class BundleWriter {

    /**
     * Who made the bundle, when, the request id its making is recorded under, for which case (or null) and the key (hex)
     * the record of its making seals the case's name under (or null), and what was selected.
     */
    public record About(Instant made, String madeBy, String request, String forCase, String caseSealKey, String selection) {
    }

    /** A record as stored (its fields and its stored leaf hash, hex) with its proof. */
    public record ProvenRecord(Map<String, String> fields, String hash, RecordProof proof) {
        String log() {
            return fields.get("log");
        }

        long seq() {
            return Decimal.parse(fields.get("seq"));
        }
    }

    /** Where consistency proofs come from: the file (docs/audit-format.md, section 5) for a log between two checkpointed sizes. */
    public interface Consistency {
        String proof(String log, long from, long to);
    }

    /** The policy files of each revision the server kept, revision to (file name to text). */
    public interface Policies {
        Map<String, String> files(String revision);
    }

    private BundleWriter() {
    }

    /** The bundle's bytes; {@code records} in any order. */
    public static byte[] write(About about, List<ProvenRecord> records, Consistency consistency, Policies policies) {
        var sorted = new ArrayList<>(records);
        sorted.sort(Comparator.comparing(ProvenRecord::log).thenComparingLong(ProvenRecord::seq));
        var files = new TreeMap<String, byte[]>(BundleNames.ORDER);
        var lines = new StringBuilder();
        var writer = new ExportWriter(lines);
        var latest = new TreeMap<String, Long>();
        var checkpoints = new TreeMap<String, List<Long>>();
        var revisions = new java.util.TreeSet<String>();
        var requests = new java.util.HashSet<String>();
        for (ProvenRecord r : sorted) {
            try {
                writer.record(r.fields(), r.hash());
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            requests.add(r.fields().get("request"));
            if (r.fields().get("revision") != null) {
                revisions.add(r.fields().get("revision"));
            }
            byte[] token = Anchor.find(r.proof().checkpoint());
            String note = asSigned(r.proof().checkpoint());
            var proof = new RecordProof(r.proof().record(), r.proof().index(), r.proof().path(), note);
            files.put(BundleNames.proof(r.log(), r.seq()), bytes(proof.format()));
            long size = sizeOf(note);
            byte[] earlier = files.put(BundleNames.checkpoint(r.log(), size), bytes(note));
            if (earlier != null && !java.util.Arrays.equals(earlier, bytes(note))) {
                throw new IllegalArgumentException("two proofs lead to checkpoint " + size + " of log " + r.log() + " with different notes");
            }
            if (earlier == null) {
                checkpoints.computeIfAbsent(r.log(), l -> new ArrayList<>()).add(size);
                latest.merge(r.log(), size, Math::max);
                if (token != null) {
                    files.put(BundleNames.token(r.log(), size), TimeStampReply.of(token));
                }
            }
        }
        files.put(BundleNames.RECORDS, bytes(lines.toString()));
        for (var e : checkpoints.entrySet()) {
            long last = latest.get(e.getKey());
            for (long size : e.getValue()) {
                if (size != last) {
                    files.put(BundleNames.consistency(e.getKey(), size, last), bytes(consistency.proof(e.getKey(), size, last)));
                }
            }
        }
        var notKept = new ArrayList<String>();
        for (String revision : revisions) {
            Map<String, String> set = policies.files(revision);
            if (set == null || set.isEmpty()) {
                notKept.add(revision);
                continue;
            }
            for (var f : set.entrySet()) {
                files.put(BundleNames.policyFile(revision, f.getKey()), bytes(f.getValue()));
            }
        }
        var head = new Manifest(about.made(), about.madeBy(), about.request(), about.forCase(), about.caseSealKey(), about.selection(), sorted.size(),
                requests.size(), notKept, List.of());
        var names = new ArrayList<>(files.keySet());
        names.add(BundleNames.README);
        files.put(BundleNames.README, BundleReadme.of(head, names));
        var entries = new ArrayList<Manifest.Entry>();
        for (var f : files.entrySet()) {
            entries.add(Manifest.Entry.of(f.getKey(), f.getValue()));
        }
        var manifest = new Manifest(head.made(), head.madeBy(), head.request(), head.forCase(), head.caseSealKey(), head.selection(), head.records(),
                head.requests(), head.revisionsNotKept(), entries);
        files.put(BundleNames.MANIFEST, manifest.bytes());
        return BundleZip.write(new LinkedHashMap<>(files));
    }

    /**
     * A checkpoint's note as its log's key signed it: without its time-stamp line, whose token the bundle holds once,
     * in the checkpoint's {@code .tsr}.
     */
    static String asSigned(String note) {
        int split = note.lastIndexOf("\n\n");
        var kept = new StringBuilder(note.substring(0, split + 2));
        for (String line : note.substring(split + 2).split("\n")) {
            if (!line.startsWith(SignedNote.DASH + Anchor.NAME + " ")) {
                kept.append(line).append('\n');
            }
        }
        return kept.toString();
    }

    /** The tree size on a checkpoint note's second line. */
    static long sizeOf(String note) {
        String[] lines = note.split("\n", 3);
        long size = lines.length < 3 ? -1 : Decimal.parse(lines[1]);
        if (size < 0) {
            throw new IllegalArgumentException("a proof's checkpoint has no tree size");
        }
        return size;
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
