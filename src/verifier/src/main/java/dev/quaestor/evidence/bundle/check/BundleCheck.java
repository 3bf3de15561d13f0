package dev.quaestor.evidence.bundle.check;

import dev.quaestor.evidence.Anchor;
import dev.quaestor.evidence.CanonicalRecord;
import dev.quaestor.evidence.Checkpoint;
import dev.quaestor.evidence.ConsistencyProof;
import dev.quaestor.evidence.Decimal;
import dev.quaestor.evidence.ExportReader;
import dev.quaestor.evidence.Hex;
import dev.quaestor.evidence.Plain;
import dev.quaestor.evidence.RecordFormat;
import dev.quaestor.evidence.RecordProof;
import dev.quaestor.evidence.TreeHash;
import dev.quaestor.evidence.bundle.BundleNames;
import dev.quaestor.evidence.bundle.BundleReadme;
import dev.quaestor.evidence.bundle.BundleZip;
import dev.quaestor.evidence.bundle.Manifest;
import dev.quaestor.evidence.bundle.PolicyRevision;
import dev.quaestor.evidence.bundle.TimeStampReply;
import dev.quaestor.evidence.check.ProofCheck;
import dev.quaestor.evidence.check.RecordProofCheck;
import dev.quaestor.evidence.check.Refusal;
import dev.quaestor.evidence.check.SignedCheckpoint;
import dev.quaestor.evidence.check.TimeStampCheck;
import dev.quaestor.evidence.check.TrustedKeys;
import dev.quaestor.evidence.write.ExportWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.AbstractMap;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Checks an evidence bundle (docs/audit-format.md, section 7) offline, trusting only the keys and TSA roots given:
 * <ol>
 * <li>the ZIP is exactly the one its files make ({@link BundleZip}), so no byte of it was added, removed or altered
 * outside the files;</li>
 * <li>the manifest is in its one written form, and names every other file, each with its size and SHA-256;</li>
 * <li>each line of {@code records.jsonl} is a record as the export writes it, matching its hash;</li>
 * <li>each record has its proof, which carries exactly that record, leads to a checkpoint signed by a trusted key, and
 * whose checkpoint is in the bundle;</li>
 * <li>each checkpoint is signed by a trusted key; its time-stamp token is the one in its {@code .tsr}, and, with TSA
 * roots pinned, vouches for it;</li>
 * <li>each checkpoint of a log is consistent with the log's latest one in the bundle;</li>
 * <li>each policy revision the records name is there (unless the manifest says the server had not kept it), and its
 * files, none holding a NUL byte in its name or text, hash to it;</li>
 * <li>there is no file the format does not call for, and the README says what the manifest and the files say;</li>
 * <li>a bundle of listed requests holds records of those requests only, and of each of them.</li>
 * </ol>
 * The manifest is not signed: who made the bundle, when, for which case and from which selection is its maker's word,
 * which the record of its making in the log (with the ZIP's SHA-256, {@link BundleReport#sha256()}) confirms.
 * Every problem is named with its file and, where it is known, the line or byte.
 */
public final class BundleCheck {

    private final TrustedKeys trusted;
    private final TimeStampCheck stamps;
    private final BundleReport report = new BundleReport();
    private Map<String, byte[]> files = Map.of();
    private final Set<String> expected = new HashSet<>();
    /** Records of records.jsonl found changed (by identity), with why: no proof vouches for them. */
    private final Map<CanonicalRecord, String> changed = new java.util.IdentityHashMap<>();

    private BundleCheck(TrustedKeys trusted, TimeStampCheck stamps) {
        this.trusted = trusted;
        this.stamps = stamps;
    }

    /** @param stamps checks time-stamp tokens against pinned TSA roots; null: the tokens are not checked (a warning says so) */
    public static BundleReport check(byte[] zip, TrustedKeys trusted, TimeStampCheck stamps) {
        var c = new BundleCheck(trusted, stamps);
        c.run(zip);
        return c.report;
    }

    private void run(byte[] zip) {
        report.sha256 = Hex.of(TreeHash.sha256(zip));
        BundleZip.Opened opened;
        try {
            opened = BundleZip.open(zip);
        } catch (BundleZip.Damaged e) {
            report.problem("the bundle (ZIP)", "byte " + Plain.n(e.offset()), e.getMessage().substring(e.getMessage().indexOf(": ") + 2));
            return;
        }
        if (opened.damaged() != null) {
            String m = opened.damaged().getMessage();
            report.problem("the bundle (ZIP)", "byte " + Plain.n(opened.damaged().offset()), m.substring(m.indexOf(": ") + 2));
        }
        files = opened.files();
        expected.addAll(List.of(BundleNames.README, BundleNames.MANIFEST, BundleNames.RECORDS));
        Manifest manifest = manifest();
        List<CanonicalRecord> records = records();
        var latest = new TreeMap<String, Long>();
        var sizes = new TreeMap<String, TreeSet<Long>>();
        var revisions = new TreeSet<String>();
        var requests = new TreeSet<String>(java.util.Comparator.nullsFirst(java.util.Comparator.naturalOrder()));
        for (CanonicalRecord r : records) {
            requests.add(r.fields().get("request"));
            if (r.fields().get("revision") != null) {
                revisions.add(r.fields().get("revision"));
            }
            Long size = proof(r);
            if (size != null) {
                sizes.computeIfAbsent(r.log(), l -> new TreeSet<>()).add(size);
                latest.merge(r.log(), size, Math::max);
            }
        }
        var checkpoints = new TreeMap<String, Checkpoint>();
        for (var e : sizes.entrySet()) {
            for (long size : e.getValue()) {
                Checkpoint cp = checkpoint(e.getKey(), size);
                if (cp != null) {
                    checkpoints.put(BundleNames.checkpoint(e.getKey(), size), cp);
                }
            }
        }
        for (var e : sizes.entrySet()) {
            long last = latest.get(e.getKey());
            Checkpoint newest = checkpoints.get(BundleNames.checkpoint(e.getKey(), last));
            for (long size : e.getValue()) {
                if (size != last) {
                    consistency(e.getKey(), checkpoints.get(BundleNames.checkpoint(e.getKey(), size)), newest, size, last);
                }
            }
        }
        policies(revisions, manifest);
        unanswered(records);
        for (String name : files.keySet()) {
            if (!expected.contains(name)) {
                report.problem(name, "", "a file no record calls for: it was added to the bundle");
            }
        }
        if (manifest != null) {
            if (manifest.records() != records.size() || manifest.requests() != requests.size()) {
                report.problem(BundleNames.MANIFEST, "", "it says " + Plain.n(manifest.records()) + " record(s) of "
                        + Plain.n(manifest.requests()) + " request(s), but records.jsonl holds " + Plain.n(records.size()) + " of "
                        + Plain.n(requests.size()));
            }
            selected(manifest, requests);
            readme(manifest);
        }
        if (stamps == null && files.keySet().stream().anyMatch(n -> n.endsWith(".tsr"))) {
            report.warnings.add("the checkpoints' time-stamp tokens were not checked (no --tsa-ca): give your TSA's root to check them");
        }
    }

    /**
     * A warning for each request a {@code DECISION} allowed (or filtered) with no {@code OUTCOME} in the bundle: whether it
     * was served is not on record here. It was still being answered when the bundle was made, or its server stopped
     * before recording one; not a problem of the bundle, which holds what the log held, but not evidence of a read. Or
     * the record was taken out after the bundle was made: the manifest is not signed, so only the record of the
     * bundle's making (its SHA-256, in the log) tells.
     */
    private void unanswered(List<CanonicalRecord> records) {
        var allowed = new TreeSet<String>();
        var answered = new HashSet<String>();
        for (CanonicalRecord r : records) {
            Map<String, String> f = r.fields();
            String request = f.get("request");
            if (request == null) {
                continue;
            }
            if ("OUTCOME".equals(f.get("kind"))) {
                answered.add(request);
            } else if ("DECISION".equals(f.get("kind")) && f.get("outcome") == null
                    && ("ALLOW".equals(f.get("decision")) || "FILTER".equals(f.get("decision")))) {
                allowed.add(request);
            }
        }
        allowed.removeAll(answered);
        for (String request : allowed) {
            report.warnings.add("request " + request + " was allowed and this bundle holds no OUTCOME of it: what it was answered is"
                    + " not on record here (it was still being answered when the bundle was made, or its server stopped first;"
                    + " or it was taken out of the bundle after it was made, which only the record of its making shows:"
                    + " README.txt, step 3)");
        }
    }

    /** The manifest, read, and every file against it; null if it cannot be read. */
    private Manifest manifest() {
        byte[] bytes = files.get(BundleNames.MANIFEST);
        if (bytes == null) {
            report.problem(BundleNames.MANIFEST, "", "missing: a bundle has a manifest");
            return null;
        }
        Manifest m;
        try {
            m = Manifest.read(bytes);
        } catch (Manifest.Malformed e) {
            report.problem(BundleNames.MANIFEST, e.line() > 0 ? "line " + Plain.n(e.line()) : "", e.getMessage());
            return null;
        }
        report.manifest = m;
        var listed = new HashSet<String>();
        String previous = null;
        for (int i = 0; i < m.files().size(); i++) {
            Manifest.Entry e = m.files().get(i);
            if (!listed.add(e.name()) || previous != null && BundleNames.ORDER.compare(previous, e.name()) >= 0) {
                report.problem(BundleNames.MANIFEST, "", "its files are not listed once each in the bundle's order (at " + e.name() + ")");
            }
            previous = e.name();
            byte[] content = files.get(e.name());
            if (content == null) {
                report.problem(e.name(), "", "missing: the manifest lists it (" + Plain.n(e.bytes()) + " bytes), the bundle does not hold it");
                report.problem(BundleNames.MANIFEST, "line " + Plain.n(m.lineOf(i)), "it lists " + e.name()
                        + ", which the bundle does not hold: the file was taken out or this line was changed");
                continue;
            }
            String sha = Hex.of(TreeHash.sha256(content));
            if (content.length != e.bytes() || !sha.equals(e.sha256())) {
                String where = "line " + Plain.n(m.lineOf(i));
                report.problem(e.name(), "", "it is not the file the manifest names (manifest.json " + where + "): " + Plain.n(content.length)
                        + " bytes with SHA-256 " + sha + ", the manifest says " + Plain.n(e.bytes()) + " bytes with " + e.sha256());
                report.problem(BundleNames.MANIFEST, where, "its entry for " + e.name() + " does not match that file: the file or this"
                        + " line was changed");
            }
        }
        for (String name : files.keySet()) {
            if (!name.equals(BundleNames.MANIFEST) && !listed.contains(name)) {
                report.problem(name, "", "not in the manifest: it was added to the bundle");
            }
        }
        return m;
    }

    /** The records, each line checked: a record of format 2 or 3 as the export writes it, matching its hash, in order. */
    private List<CanonicalRecord> records() {
        var out = new ArrayList<CanonicalRecord>();
        byte[] bytes = files.get(BundleNames.RECORDS);
        if (bytes == null) {
            report.problem(BundleNames.RECORDS, "", "missing: a bundle holds its records there");
            return out;
        }
        if (bytes.length == 0 || bytes[bytes.length - 1] != '\n') {
            report.problem(BundleNames.RECORDS, "", "it does not end with a line end");
        }
        int from = 0;
        long number = 0;
        CanonicalRecord previous = null;
        for (int i = 0; i <= bytes.length; i++) {
            if (i < bytes.length && bytes[i] != '\n') {
                continue;
            }
            if (i == bytes.length && from == i) {
                break;
            }
            number++;
            String where = "line " + Plain.n(number);
            ExportReader.Line line = ExportReader.parse(bytes, from, i, number);
            byte[] text = Arrays.copyOfRange(bytes, from, i);
            from = i + 1;
            if (line == null || line.error() != null || line.record() == null) {
                report.problem(BundleNames.RECORDS, where, line == null ? "a blank line" : line.error() != null ? line.error()
                        : "not a record line");
                continue;
            }
            CanonicalRecord r = line.record();
            if (!RecordFormat.isCurrent(r.version()) || r.canonical() == null || r.unknownField() != null) {
                report.problem(BundleNames.RECORDS, where, "not a record of format version 2 or 3"
                        + (r.unknownField() == null ? "" : " (field " + r.unknownField() + " is not in the format)"));
                continue;
            }
            if (r.log() == null || r.log().isEmpty() || Decimal.parse(r.seq()) < 1 || "".equals(r.fields().get("revision"))) {
                report.problem(BundleNames.RECORDS, where, "the record was damaged: it names no log, no valid seq or an empty policy"
                        + " revision");
                continue;
            }
            if (!Hex.matches(line.storedHash(), r.leaf())) {
                report.problem(BundleNames.RECORDS, where, "record " + r.seq() + " of log " + r.log() + " does not match its hash: the"
                        + " record was changed");
                changed.put(r, "it does not match its hash: it was changed (records.jsonl, " + where + ")");
            }
            if (!Arrays.equals(text, exportLine(r.fields(), line.storedHash()))) {
                report.problem(BundleNames.RECORDS, where, "not written as the export writes a record (its spelling was changed)");
                changed.putIfAbsent(r, "its spelling was changed (records.jsonl, " + where + ")");
            }
            if (previous != null && (previous.log().compareTo(r.log()) > 0 || previous.log().equals(r.log())
                    && Decimal.parse(previous.seq()) >= Decimal.parse(r.seq()))) {
                report.problem(BundleNames.RECORDS, where, "out of order: records are by log, then seq, each once");
            }
            previous = r;
            out.add(r);
        }
        return out;
    }

    private static byte[] exportLine(Map<String, String> fields, String hash) {
        var sb = new StringBuilder();
        try {
            new ExportWriter(sb).record(fields, hash);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (IllegalArgumentException e) {
            return new byte[0];
        }
        String s = sb.toString();
        return s.substring(0, s.length() - 1).getBytes(StandardCharsets.UTF_8);
    }

    /** The record's proof, checked; the size of the checkpoint it leads to, or null if there is none to look at. */
    private Long proof(CanonicalRecord r) {
        long seq = Decimal.parse(r.seq());
        String name = BundleNames.proof(r.log(), seq);
        expected.add(name);
        byte[] bytes = files.get(name);
        if (bytes == null) {
            report.problem(name, "", "missing: the proof of record " + seq + " of log " + r.log() + " (records.jsonl)");
            report.records.add(BundleReport.Proven.not(r.fields(), "its proof " + name + " is missing"));
            return null;
        }
        String text = utf8(bytes);
        List<RecordProof> proofs;
        try {
            proofs = text == null ? null : RecordProof.parseAll(text);
        } catch (IllegalArgumentException e) {
            report.problem(name, "", "damaged: " + e.getMessage());
            report.records.add(BundleReport.Proven.not(r.fields(), "its proof " + name + " is damaged"));
            return null;
        }
        if (proofs == null || proofs.size() != 1) {
            report.problem(name, "", text == null ? "damaged: it is not UTF-8 text" : "it holds " + proofs.size() + " proofs; one is the record's");
            report.records.add(BundleReport.Proven.not(r.fields(), "its proof " + name + " is damaged"));
            return null;
        }
        RecordProof proof = proofs.get(0);
        String notProven = changed.get(r);
        if (!Arrays.equals(proof.record(), r.canonical())) {
            report.problem(name, "line 2", "the record it proves is not record " + seq + " of log " + r.log() + " as records.jsonl holds it");
            notProven = notProven != null ? notProven : "its proof " + name + " proves another record";
        }
        var result = RecordProofCheck.check(proof, trusted, null);
        if (!result.verified()) {
            report.problem(name, "", result.failure());
            notProven = notProven != null ? notProven : "its proof " + name + " does not check: " + result.failure();
        }
        report.records.add(notProven != null ? BundleReport.Proven.not(r.fields(), notProven)
                : BundleReport.Proven.by(r.fields(), "in log " + result.checkpoint().origin() + " as signed at "
                        + Plain.n(result.checkpoint().size()) + " records by " + result.signer()));
        long size;
        try {
            size = Checkpoint.parse(checkpointText(proof.checkpoint()), proof.checkpoint()).size();
        } catch (Exception e) {
            return null;
        }
        String note = BundleNames.checkpoint(r.log(), size);
        byte[] noteBytes = files.get(note);
        if (noteBytes != null && !Arrays.equals(noteBytes, proof.checkpoint().getBytes(StandardCharsets.UTF_8))) {
            report.problem(note, "", "not the checkpoint " + name + " leads to (one of the two was changed)");
        }
        return size;
    }

    /** A checkpoint file: signed by a trusted key, for its log and size, and its time-stamp token; null if refused. */
    private Checkpoint checkpoint(String log, long size) {
        String name = BundleNames.checkpoint(log, size);
        String tokenName = BundleNames.token(log, size);
        expected.add(name);
        byte[] bytes = files.get(name);
        if (bytes == null) {
            report.problem(name, "", "missing: a proof leads to checkpoint " + size + " of log " + log);
            return null;
        }
        String note = utf8(bytes);
        SignedCheckpoint opened;
        try {
            if (note == null) {
                throw new IllegalArgumentException("it is not UTF-8 text");
            }
            opened = SignedCheckpoint.open(note, trusted, "the checkpoint");
        } catch (Refusal | IllegalArgumentException e) {
            report.problem(name, "", e.getMessage());
            expected.add(tokenName);
            return null;
        }
        Checkpoint cp = opened.checkpoint();
        if (opened.signerOf(log) == null || cp.size() != size) {
            report.problem(name, "line 1", "it is checkpoint " + cp.size() + " of " + cp.origin() + ", not " + size + " of log " + log);
            return null;
        }
        String words = "checkpoint " + Plain.n(size) + " of log " + log + ", signed" + (cp.time() == null ? "" : " on " + cp.time());
        try {
            if (Anchor.find(note) != null) {
                report.problem(name, "its time-stamp line", "a checkpoint in a bundle is the note as signed; its token is in " + tokenName);
            }
        } catch (IllegalArgumentException e) {
            report.problem(name, "its time-stamp line", "damaged: " + e.getMessage());
        }
        byte[] reply = files.get(tokenName);
        if (reply == null) {
            report.checkpoints.add(words + "; not time-stamped");
            if (stamps != null) {
                report.warnings.add("--tsa-ca was given, and checkpoint " + Plain.n(size) + " of log " + log + " is not time-stamped:"
                        + " only the log's key dates it and the records it proves");
            }
            return cp;
        }
        expected.add(tokenName);
        byte[] token = TimeStampReply.token(reply);
        if (token == null) {
            report.problem(tokenName, "", "not a granted time-stamp reply holding one token, as the format writes it");
            return cp;
        }
        try {
            TimeStampCheck.Stamp stamp = TimeStampCheck.check(stamps, token, opened.text(), cp.time());
            report.checkpoints.add(words + (stamp == null ? "; time-stamped, not checked (no --tsa-ca)"
                    : "; time-stamped: " + stamp.tsa() + " saw it at " + stamp.time()));
        } catch (Refusal e) {
            report.problem(tokenName, "", "the time-stamp token " + e.getMessage());
        } catch (RuntimeException e) {
            report.problem(tokenName, "", "the time-stamp token is damaged (" + e.getMessage() + ")");
        }
        return cp;
    }

    private void consistency(String log, Checkpoint older, Checkpoint newest, long size, long last) {
        String name = BundleNames.consistency(log, size, last);
        expected.add(name);
        byte[] bytes = files.get(name);
        if (bytes == null) {
            report.problem(name, "", "missing: the proof that log " + log + " at " + size + " records is the start of its log at " + last);
            return;
        }
        ConsistencyProof proof;
        try {
            String text = utf8(bytes);
            if (text == null) {
                throw new IllegalArgumentException("it is not UTF-8 text");
            }
            proof = ConsistencyProof.parse(text);
        } catch (IllegalArgumentException e) {
            report.problem(name, "", "damaged: " + e.getMessage());
            return;
        }
        if (older == null || newest == null) {
            return; // the refused checkpoint is a problem already
        }
        if (!proof.origin().equals(older.origin()) || proof.from() != size || proof.to() != last) {
            report.problem(name, "lines 2-3", "it is for " + proof.origin() + " from " + proof.from() + " to " + proof.to());
        } else if (!ProofCheck.consistency(size, older.root(), last, newest.root(), proof.path())) {
            report.problem(name, "", "the log at " + Plain.n(last) + " records does not extend the log at " + Plain.n(size)
                    + " records (a checkpoint or the proof was changed)");
        } else {
            report.consistency.add("log " + log + " at " + Plain.n(size) + " records is the start of the log at " + Plain.n(last));
        }
    }

    private void policies(Set<String> revisions, Manifest manifest) {
        List<String> notKept = manifest == null ? List.of() : manifest.revisionsNotKept();
        for (String revision : revisions) {
            String folder = BundleNames.policyFolder(revision);
            var set = new ArrayList<Map.Entry<String, String>>();
            boolean readable = true;
            for (var f : files.entrySet()) {
                if (!f.getKey().startsWith(folder)) {
                    continue;
                }
                expected.add(f.getKey());
                String file = BundleNames.unsegment(f.getKey().substring(folder.length()));
                String text = utf8(f.getValue());
                if (file == null || text == null) {
                    report.problem(f.getKey(), "", file == null ? "not a policy file's name" : "not UTF-8 text");
                    readable = false;
                    continue;
                }
                if (file.indexOf(0) >= 0 || text.indexOf(0) >= 0) {
                    report.problem(f.getKey(), "", "a NUL byte in its " + (file.indexOf(0) >= 0 ? "name" : "text") + ": the revision"
                            + " hash separates files by NUL, so a policy file never holds one");
                    readable = false;
                    continue;
                }
                set.add(new AbstractMap.SimpleImmutableEntry<>(file, text));
            }
            if (set.isEmpty() && readable) {
                if (notKept.contains(revision)) {
                    report.warnings.add("policy revision " + revision + ", which records name, is not in the bundle: the server had not"
                            + " kept its files");
                } else {
                    report.problem(folder, "", "missing: records name policy revision " + revision);
                }
                continue;
            }
            if (notKept.contains(revision)) {
                report.problem(BundleNames.MANIFEST, "", "it says the files of revision " + revision + " were not kept, but they are here");
            }
            String actual = PolicyRevision.of(set);
            if (!readable) {
                continue;
            }
            if (!actual.equals(revision)) {
                report.problem(folder, "", "its files hash to revision " + actual + ", not " + revision + ": a policy file was changed,"
                        + " added or removed");
            } else {
                report.policies.add("policy revision " + revision + ": " + set.size() + " file(s), hashing to the revision");
            }
        }
        for (String r : notKept) {
            if (!revisions.contains(r)) {
                report.problem(BundleNames.MANIFEST, "", "it names revision " + r + " as not kept, but no record names it");
            }
        }
    }

    /**
     * A bundle of listed requests (the selection {@code requests ID, ID}, as the server writes it) holds records of
     * those requests, and of each of them; which requests a search found only the log can say.
     */
    private void selected(Manifest m, Set<String> requests) {
        String s = m.selection();
        String forCase = m.forCase() == null ? "" : " (case " + m.forCase() + ")";
        if (!s.startsWith("requests ") || !s.endsWith(forCase)) {
            return;
        }
        String ids = s.substring("requests ".length(), s.length() - forCase.length());
        var listed = new java.util.LinkedHashSet<>(Arrays.asList(ids.split(", ", -1)));
        for (String r : requests) {
            if (!listed.contains(r)) {
                report.problem(BundleNames.RECORDS, "", "it holds records of request " + r + ", which the selection does not name");
            }
        }
        for (String r : listed) {
            if (!requests.contains(r)) {
                report.problem(BundleNames.RECORDS, "", "it holds no record of request " + r + ", which the selection names");
            }
        }
    }

    private void readme(Manifest manifest) {
        byte[] readme = files.get(BundleNames.README);
        if (readme == null) {
            report.problem(BundleNames.README, "", "missing: a bundle says what it is in its README");
            return;
        }
        byte[] expectedReadme = BundleReadme.of(manifest, files.keySet());
        if (!Arrays.equals(readme, expectedReadme)) {
            long line = 1;
            for (int i = 0; i < Math.min(readme.length, expectedReadme.length) && readme[i] == expectedReadme[i]; i++) {
                if (readme[i] == '\n') {
                    line++;
                }
            }
            report.problem(BundleNames.README, "line " + Plain.n(line), "it does not say what the manifest and the files say");
        }
    }

    private static String checkpointText(String note) {
        int split = note.indexOf("\n\n");
        return split < 0 ? note : note.substring(0, split + 1);
    }

    private static String utf8(byte[] bytes) {
        try {
            return StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(bytes)).toString();
        } catch (CharacterCodingException e) {
            return null;
        }
    }
}
