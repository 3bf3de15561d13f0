package dev.quaestor.evidence.bundle.check;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.quaestor.evidence.Hex;
import dev.quaestor.evidence.RecordFormat;
import dev.quaestor.evidence.TestLog;
import dev.quaestor.evidence.TreeHash;
import dev.quaestor.evidence.bundle.BundleNames;
import dev.quaestor.evidence.bundle.BundleWriter;
import dev.quaestor.evidence.bundle.BundleZip;
import dev.quaestor.evidence.bundle.PolicyRevision;
import dev.quaestor.evidence.bundle.TimeStampReply;
import dev.quaestor.evidence.check.TimeStampCheck;
import dev.quaestor.evidence.check.TrustedKeys;
import dev.quaestor.evidence.cli.Main;
import dev.quaestor.evidence.prove.ProofBuilder;
import dev.quaestor.evidence.prove.ProofSource;
import dev.quaestor.evidence.prove.Prover;
import dev.quaestor.testtsa.OpensslTsa;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A bundle of three requests out of a log of 3,000 records, written by {@link BundleWriter} from proofs made from the
 * log's export, with every checkpoint time-stamped by OpenSSL's TSA: it checks with the verifier, its tokens with
 * {@code openssl ts -verify}, and a byte altered at the start, middle or end of any file (the ZIP rebuilt around it), a
 * byte of the ZIP itself altered, a byte added or cut off, or a file added or removed, is a problem named with its file.
 */
class BundleCheckTest {

    static final TestLog.Key KEY = TestLog.Key.of("quaestor.audit", 7);
    static final String LOG = "replica-a";
    static final Map<String, String> POLICY = Map.of("shared.yaml", "apiVersion: quaestor/v1\nkind: Policy\nrules: []\n",
            "team.yaml", "apiVersion: quaestor/v1\nkind: Policy\n# the team's rules\nrules: []\n");
    static final String REVISION = PolicyRevision.of(POLICY.entrySet());
    /** The key the record of the bundle's making seals the case's name under. */
    static final String CASE_SEAL_KEY = "5f".repeat(32);
    static final Instant SIGNED = Instant.now().minusSeconds(300);

    @TempDir
    static Path dir;
    static OpensslTsa tsa;
    static TimeStampCheck pinned;
    static byte[] bundle;

    @BeforeAll
    static void bundle() throws Exception {
        tsa = OpensslTsa.create(dir.resolve("tsa"), "Quaestor Test TSA");
        try (InputStream in = Files.newInputStream(tsa.root())) {
            pinned = new TimeStampCheck(TimeStampCheck.certificates(in), TimeStampCheck.MAX_DELAY);
        }
        var log = new TestLog(KEY, LOG);
        for (long size = 500; size <= 3000; size += 500) {
            while (log.tree.size() < size) {
                var r = TestLog.record(LOG, log.tree.size() + 1);
                r.put("revision", REVISION);
                log.append(r);
            }
            log.checkpointAt(SIGNED.plusSeconds(size / 100));
            log.anchor(size, tsa.stamp(log.text(size).getBytes(StandardCharsets.UTF_8)));
        }
        Set<String> requests = Set.of("req-5", "req-700", "req-1400");
        var source = new ProofSource(r -> requests.contains(r.fields().get("request")), Map.of());
        dev.quaestor.evidence.ExportReader.read(new ByteArrayInputStream(TestLog.text(log.export()).getBytes(StandardCharsets.UTF_8)), source);
        ProofSource.Log l = source.logs().get(LOG);
        var proven = new ArrayList<BundleWriter.ProvenRecord>();
        for (var found : source.found()) {
            var proof = Prover.prove(l, found, TrustedKeys.of(KEY.vkey()));
            proven.add(new BundleWriter.ProvenRecord(RecordFormat.parse(found.canonical()), Hex.of(TreeHash.leaf(found.canonical())), proof));
        }
        assertEquals(6, proven.size());
        var builder = new ProofBuilder(l.tree);
        bundle = BundleWriter.write(new BundleWriter.About(Instant.parse("2026-11-29T10:00:00Z"), "carol", "req-bundle", "CASE-7", CASE_SEAL_KEY,
                "requests req-5, req-700, req-1400"), proven,
                (logId, from, to) -> new dev.quaestor.evidence.ConsistencyProof(l.origin(), from, to, builder.consistency(from, to)).format(),
                revision -> revision.equals(REVISION) ? POLICY : null);
    }

    /**
     * A bundle of a small log of 20 records, each naming {@code revision}, not time-stamped: the records whose request
     * {@code chosen} takes, selected as {@code selection}, with {@code policy} as the files of every revision.
     */
    static byte[] small(String revision, Map<String, String> policy, java.util.function.Predicate<String> chosen, String selection)
            throws Exception {
        return small(revision, policy, chosen, new BundleWriter.About(Instant.parse("2026-11-29T10:00:00Z"), "carol", "req-bundle",
                null, null, selection));
    }

    /** As above, made as {@code about} says. */
    static byte[] small(String revision, Map<String, String> policy, java.util.function.Predicate<String> chosen,
            BundleWriter.About about) throws Exception {
        return small(revision, policy, chosen, about, r -> { });
    }

    /** As above, each record as {@code edit} changes it before it is appended. */
    static byte[] small(String revision, Map<String, String> policy, java.util.function.Predicate<String> chosen,
            BundleWriter.About about, java.util.function.Consumer<Map<String, String>> edit) throws Exception {
        var log = new TestLog(KEY, LOG);
        while (log.tree.size() < 20) {
            var r = TestLog.record(LOG, log.tree.size() + 1);
            r.put("revision", revision);
            edit.accept(r);
            log.append(r);
        }
        log.checkpointAt(SIGNED);
        var source = new ProofSource(r -> chosen.test(r.fields().get("request")), Map.of());
        dev.quaestor.evidence.ExportReader.read(new ByteArrayInputStream(TestLog.text(log.export()).getBytes(StandardCharsets.UTF_8)), source);
        ProofSource.Log l = source.logs().get(LOG);
        var proven = new ArrayList<BundleWriter.ProvenRecord>();
        for (var found : source.found()) {
            var proof = Prover.prove(l, found, TrustedKeys.of(KEY.vkey()));
            proven.add(new BundleWriter.ProvenRecord(RecordFormat.parse(found.canonical()), Hex.of(TreeHash.leaf(found.canonical())), proof));
        }
        return BundleWriter.write(about, proven, (logId, from, to) -> { throw new AssertionError("one checkpoint"); }, r -> policy);
    }

    static BundleReport check(byte[] zip) {
        return BundleCheck.check(zip, TrustedKeys.of(KEY.vkey()), pinned);
    }

    static Map<String, byte[]> files(byte[] zip) throws Exception {
        return BundleZip.open(zip).files();
    }

    @Test
    void theBundleChecksAndHoldsWhatTheFormatCallsFor() throws Exception {
        BundleReport r = check(bundle);
        assertTrue(r.ok(), r.problems().toString());
        assertEquals(6, r.records().size());
        assertEquals(3, r.checkpoints().size(), r.checkpoints().toString());
        assertTrue(r.checkpoints().stream().allMatch(c -> c.contains("time-stamped: ")), r.checkpoints().toString());
        assertEquals(2, r.consistency().size(), r.consistency().toString());
        assertEquals(1, r.policies().size());
        var names = files(bundle).keySet();
        assertEquals(List.of("README.txt", "manifest.json", "records.jsonl"), new ArrayList<>(names).subList(0, 3));
        assertTrue(names.containsAll(List.of("proofs/replica-a/9.tlog-proof", "proofs/replica-a/1400.tlog-proof",
                "checkpoints/replica-a/500.note", "checkpoints/replica-a/500.tsr", "checkpoints/replica-a/1500.note",
                "checkpoints/replica-a/3000.note", "consistency/replica-a/500-3000.txt", "consistency/replica-a/1500-3000.txt",
                "policy/" + REVISION + "/shared.yaml", "policy/" + REVISION + "/team.yaml")), names.toString());
        assertEquals(6 + 3 + 3 + 2 + 2 + 3, names.size(), names.toString());

        var out = new ByteArrayOutputStream();
        Path file = Files.write(dir.resolve("bundle.zip"), bundle);
        Path vkey = Files.writeString(dir.resolve("audit.vkey"), KEY.vkey().toString());
        int code = Main.run(new String[] {"bundle", "check", file.toString(), "--trust", vkey.toString(), "--tsa-ca", tsa.root().toString()},
                new PrintStream(out, true, StandardCharsets.UTF_8), System.err);
        String printed = out.toString(StandardCharsets.UTF_8);
        assertEquals(Main.VERIFIED, code, printed);
        String sha = Hex.of(TreeHash.sha256(bundle));
        assertEquals(sha, r.sha256());
        assertTrue(printed.startsWith("Evidence bundle, SHA-256 " + sha + "\n  made by carol at 2026-11-29T10:00:00Z (UTC), for case CASE-7\n"
                + "  selected: requests req-5, req-700, req-1400\n"), printed);
        assertTrue(printed.endsWith("""
                VERIFIED: 6 record(s), each proven in its log by its proof, at a checkpoint signed by a trusted key
                  the checkpoints: each signed by a trusted key, with its time-stamp as said under Checkpoints
                  the policy files: each revision's files hash to the revision the records name
                  the files: each is the one the manifest lists, and there is no other
                Only its maker's word (the manifest is not signed): who made it, when, for which case, what was selected, and that it\
                 holds every record of each selected request.
                To confirm them, find the record of its making in the log: request req-bundle, method audit/bundle/made. If this is\
                 the bundle the server made, that record's sha256 is %s, and its detail names what was selected. The log's verifier\
                 finds it: in a verified export of the log, or in its proof (GET /audit/proof?requestId=req-bundle, then: check PROOF\
                 --trust audit.vkey).
                """.formatted(sha)), printed);
    }

    @Test
    void eachTokenPassesOpensslTsVerifyAsTheTsasReply() throws Exception {
        int checked = 0;
        for (var f : files(bundle).entrySet()) {
            if (!f.getKey().endsWith(".tsr")) {
                continue;
            }
            String note = new String(files(bundle).get(f.getKey().replace(".tsr", ".note")), StandardCharsets.UTF_8);
            byte[] text = note.substring(0, note.indexOf("\n\n") + 1).getBytes(StandardCharsets.UTF_8);
            assertEquals(4, note.substring(0, note.indexOf("\n\n") + 1).split("\n").length, "the README's head -n 4");
            Path data = Files.write(dir.resolve("cp.text"), text);
            Path reply = Files.write(dir.resolve("cp.tsr"), f.getValue());
            var p = new ProcessBuilder("openssl", "ts", "-verify", "-in", reply.toString(), "-data", data.toString(), "-CAfile",
                    tsa.root().toString()).redirectErrorStream(true).start();
            String said = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertEquals(0, p.waitFor(), said);
            assertTrue(said.contains("Verification: OK"), said);
            assertNull(OpensslTsa.verify(dir, text, TimeStampReply.token(f.getValue()), tsa.root()));
            checked++;
        }
        assertEquals(3, checked);
    }

    /**
     * A byte altered at the start, in the middle or at the end of any file is found in that file. Not every byte: a whole
     * bundle is checked per change; and a change of one of the manifest's own words (who made the bundle, say) is found
     * as a README that no longer says what the manifest says.
     */
    @Test
    void aByteAlteredAtTheStartMiddleOrEndOfAnyFileIsFoundInThatFile() throws Exception {
        Map<String, byte[]> files = files(bundle);
        for (String name : files.keySet()) {
            byte[] content = files.get(name);
            for (int at : new int[] {0, content.length / 2, content.length - 1}) {
                var altered = new LinkedHashMap<>(files);
                byte[] changed = content.clone();
                changed[at] ^= 0x01;
                altered.put(name, changed);
                BundleReport r = check(BundleZip.write(altered));
                assertFalse(r.ok(), name + " byte " + at);
                assertTrue(r.problems().stream().anyMatch(p -> p.file().equals(name)), name + " byte " + at + ": " + r.problems());
            }
        }
    }

    @Test
    void aRecordChangedInTheBundleIsNotProvenWhereItIsPrintedAndTheOthersAre() throws Exception {
        Map<String, byte[]> files = files(bundle);
        String records = new String(files.get("records.jsonl"), StandardCharsets.UTF_8);
        int at = records.indexOf("\"method\":\"") + "\"method\":\"".length();
        assertTrue(at > "\"method\":\"".length() && at < records.indexOf('\n'), "the first record names a method: " + records);
        var altered = new LinkedHashMap<>(files);
        altered.put("records.jsonl", (records.substring(0, at) + "X" + records.substring(at + 1)).getBytes(StandardCharsets.UTF_8));
        BundleReport r = check(BundleZip.write(altered));
        assertFalse(r.ok());
        assertEquals(6, r.records().size(), "every record is listed, proven or not");
        assertNull(r.records().get(0).vouched(), "the changed record is not vouched for: " + r.records().get(0));
        assertTrue(r.records().get(0).notProven().contains("it was changed (records.jsonl, line 1)"), r.records().get(0).notProven());
        assertTrue(r.records().subList(1, 6).stream().allMatch(p -> p.vouched() != null && p.notProven() == null), r.records().toString());

        Path file = Files.write(dir.resolve("changed.zip"), BundleZip.write(altered));
        Path vkey = Files.writeString(dir.resolve("audit.vkey"), KEY.vkey().toString());
        var out = new ByteArrayOutputStream();
        int code = Main.run(new String[] {"bundle", "check", file.toString(), "--trust", vkey.toString()},
                new PrintStream(out, true, StandardCharsets.UTF_8), System.err);
        String printed = out.toString(StandardCharsets.UTF_8);
        assertEquals(Main.NOT_VERIFIED, code, printed);
        String firstRecord = printed.substring(printed.indexOf("\nRecord "), printed.indexOf("\nRecord ", printed.indexOf("\nRecord ") + 1));
        assertTrue(firstRecord.contains("\n  NOT proven: it does not match its hash") && !firstRecord.contains("\n  proven:"), firstRecord);
        assertEquals(5, printed.split("\n  proven: ", -1).length - 1, printed);
    }

    @Test
    void anyByteOfTheZipAlteredAddedOrCutIsFound() throws Exception {
        // Every byte of the first header and of the end record, and a byte in every 101 between (each check costs the
        // bundle's signatures); tokens unchecked: what is found must be found without them.
        var positions = new java.util.TreeSet<Integer>();
        for (int at = 0; at < 30; at++) {
            positions.add(at);
            positions.add(bundle.length - 1 - at);
        }
        for (int at = 0; at < bundle.length; at += 101) {
            positions.add(at);
        }
        for (int at : positions) {
            byte[] altered = bundle.clone();
            altered[at] ^= 0x20;
            assertFalse(BundleCheck.check(altered, TrustedKeys.of(KEY.vkey()), null).ok(), "byte " + at);
        }
        byte[] longer = java.util.Arrays.copyOf(bundle, bundle.length + 1);
        BundleReport added = check(longer);
        assertFalse(added.ok());
        assertTrue(added.problems().get(0).toString().contains("after the end of the ZIP"), added.problems().toString());
        BundleReport cut = check(java.util.Arrays.copyOf(bundle, bundle.length - 1));
        assertFalse(cut.ok());
        assertTrue(cut.problems().get(0).toString().contains("the ZIP ends early, in the ZIP's end record: the rest of the"
                + " bundle is missing"), cut.problems().toString());
        byte[] header = bundle.clone();
        header[4] ^= 0x20; // the version in the first file's header
        String said = check(header).problems().get(0).toString();
        assertTrue(said.contains("the header of README.txt differs from the ZIP of the bundle's files"), said);
        byte[] prefixed = new byte[bundle.length + 1];
        System.arraycopy(bundle, 0, prefixed, 1, bundle.length);
        assertFalse(check(prefixed).ok());
    }

    /**
     * A bundle for a case carries the key its making's record seals the case's name under, on the line after the case;
     * a manifest with a key that is not one, or with a key and no case, is refused.
     */
    @Test
    void theManifestCarriesTheKeyTheCasesNameIsSealedUnder() throws Exception {
        assertTrue(check(bundle).ok(), check(bundle).problems().toString());
        Map<String, byte[]> files = files(bundle);
        String manifest = new String(files.get("manifest.json"), java.nio.charset.StandardCharsets.UTF_8);
        assertTrue(manifest.contains("  \"case\": \"CASE-7\",\n  \"caseSealKey\": \"" + CASE_SEAL_KEY + "\",\n  \"selection\""), manifest);
        var m = dev.quaestor.evidence.bundle.Manifest.read(files.get("manifest.json"));
        assertEquals(CASE_SEAL_KEY, m.caseSealKey());
        assertEquals(manifest.split("\n", -1)[(int) m.lineOf(0) - 1], "    {\"name\":\"README.txt\",\"bytes\":" + m.files().get(0).bytes()
                + ",\"sha256\":\"" + m.files().get(0).sha256() + "\"},");
        String readme = new String(files.get("README.txt"), java.nio.charset.StandardCharsets.UTF_8);
        assertTrue(readme.contains("under the key caseSealKey in manifest.json"), readme);
        for (String bad : List.of(manifest.replace(CASE_SEAL_KEY, "5F".repeat(32)), manifest.replace(CASE_SEAL_KEY, "5f".repeat(31)),
                manifest.replace("  \"case\": \"CASE-7\",\n", ""))) {
            var altered = new LinkedHashMap<>(files);
            altered.put("manifest.json", bad.getBytes(java.nio.charset.StandardCharsets.UTF_8));
            BundleReport r = check(BundleZip.write(altered));
            assertFalse(r.ok(), bad);
            assertTrue(r.problems().stream().anyMatch(p -> p.file().equals("manifest.json")), r.problems().toString());
        }
    }

    /** A name changed in the manifest's list is found in the manifest, at its line, as well as in the file it named. */
    @Test
    void aNameChangedInTheManifestIsFoundInTheManifest() throws Exception {
        Map<String, byte[]> files = files(bundle);
        String name = "proofs/replica-a/9.tlog-proof";
        String manifest = new String(files.get("manifest.json"), java.nio.charset.StandardCharsets.UTF_8);
        assertTrue(manifest.contains("\"" + name + "\""), manifest);
        var altered = new LinkedHashMap<>(files);
        altered.put("manifest.json", manifest.replace("\"" + name + "\"", "\"" + name.replace("proof", "proog") + "\"")
                .getBytes(java.nio.charset.StandardCharsets.UTF_8));
        BundleReport r = check(BundleZip.write(altered));
        assertFalse(r.ok());
        assertTrue(r.problems().stream().anyMatch(p -> p.file().equals("manifest.json") && p.toString().contains("line ")),
                r.problems().toString());
    }

    @Test
    void aFileAddedOrRemovedIsNamed() throws Exception {
        Map<String, byte[]> files = files(bundle);
        var added = new LinkedHashMap<>(files);
        added.put("proofs/replica-a/11.tlog-proof", files.get("proofs/replica-a/9.tlog-proof"));
        BundleReport r = check(BundleZip.write(added));
        assertFalse(r.ok());
        assertTrue(r.problems().stream().anyMatch(p -> p.file().equals("proofs/replica-a/11.tlog-proof")), r.problems().toString());
        for (String name : files.keySet()) {
            var removed = new LinkedHashMap<>(files);
            removed.remove(name);
            BundleReport gone = check(BundleZip.write(removed));
            assertFalse(gone.ok(), name);
            assertTrue(gone.problems().stream().anyMatch(p -> p.file().equals(name) || p.file().startsWith("policy/") && name.startsWith("policy/")),
                    name + ": " + gone.problems());
        }
    }

    @Test
    void aPolicyFileHoldingANulByteIsRefusedSoNoTwoFileSetsShareARevision() throws Exception {
        var real = Map.of("allow.yaml", "rules: [allow-analysts]\n", "deny.yaml", "rules: [deny-secret]\n");
        var forged = Map.of("allow.yaml", "rules: [allow-analysts]\n\0deny.yaml\0rules: [deny-secret]\n");
        String revision = PolicyRevision.of(real.entrySet());
        assertEquals(revision, PolicyRevision.of(forged.entrySet()), "the two sets share a revision");
        assertTrue(check(small(revision, real, "req-3"::equals, "requests req-3")).ok());

        BundleReport r = check(small(revision, forged, "req-3"::equals, "requests req-3"));
        assertFalse(r.ok());
        assertEquals(List.of(new BundleReport.Problem("policy/" + revision + "/allow.yaml", "", "a NUL byte in its text: the revision hash"
                + " separates files by NUL, so a policy file never holds one")), r.problems());
        assertTrue(r.policies().isEmpty(), r.policies().toString());
    }

    @Test
    void aBundleOfListedRequestsHoldsRecordsOfThoseAndOfEach() throws Exception {
        assertTrue(check(small(REVISION, POLICY, Set.of("req-3", "req-7")::contains, "requests req-3, req-7")).ok());
        // Every record of req-7 left out, the manifest and README made again: the selection still names it.
        BundleReport left = check(small(REVISION, POLICY, "req-3"::equals, "requests req-3, req-7"));
        assertEquals(List.of(new BundleReport.Problem("records.jsonl", "", "it holds no record of request req-7, which the selection"
                + " names")), left.problems());
        BundleReport slipped = check(small(REVISION, POLICY, Set.of("req-3", "req-4")::contains, "requests req-3"));
        assertEquals(List.of(new BundleReport.Problem("records.jsonl", "", "it holds records of request req-4, which the selection does"
                + " not name")), slipped.problems());
        // Which requests a search found only the log can say.
        assertTrue(check(small(REVISION, POLICY, "req-3"::equals, "the requests of the search subject=alice")).ok());
    }

    /**
     * A bundle's README is compared word for word with the one its manifest and files call for: one made earlier must
     * keep checking, so its text is pinned here. Changing it breaks every bundle already handed out.
     */
    @Test
    void theReadmeOfABundleIsTheOneBundlesAlreadyHandedOutHold() throws Exception {
        byte[] readme = files(small(REVISION, POLICY, "req-3"::equals, "requests req-3")).get("README.txt");
        assertEquals(PINNED_README_SHA256, Hex.of(TreeHash.sha256(readme)), new String(readme, StandardCharsets.UTF_8));
    }

    static final String PINNED_README_SHA256 = "a3959ff9a5edacc46c6fa3ad5906091b8eb2398dc2a8df9de462c23e4d3aac4e";

    @Test
    void aBundleWithoutTimeStampsCheckedWithATsaRootSaysNoneVouches() throws Exception {
        byte[] zip = small(REVISION, POLICY, "req-3"::equals, "requests req-3");

        BundleReport withRoot = check(zip);
        assertTrue(withRoot.ok(), withRoot.problems().toString());
        assertEquals(List.of("--tsa-ca was given, and checkpoint 20 of log " + LOG + " is not time-stamped: only"
                + " the log's key dates it and the records it proves"), withRoot.warnings().stream().filter(w -> w.contains("--tsa-ca"))
                .toList());
        BundleReport withoutRoot = BundleCheck.check(zip, TrustedKeys.of(KEY.vkey()), null);
        assertTrue(withoutRoot.warnings().stream().noneMatch(w -> w.contains("tsa")), withoutRoot.warnings().toString());
        // The time-stamped bundle checked with the root: no such warning.
        assertTrue(check(bundle).warnings().stream().noneMatch(w -> w.contains("not time-stamped")), check(bundle).warnings().toString());

        // One of its proofs, checked alone with the root, says so too.
        String proofName = files(zip).keySet().stream().filter(n -> n.startsWith("proofs/")).findFirst().orElseThrow();
        Path proof = Files.write(dir.resolve("unstamped.tlog-proof"), files(zip).get(proofName));
        Path vkey = Files.writeString(dir.resolve("unstamped.vkey"), KEY.vkey().toString());
        var out = new ByteArrayOutputStream();
        int code = Main.run(new String[] {"check", proof.toString(), "--trust", vkey.toString(), "--tsa-ca", tsa.root().toString()},
                new PrintStream(out, true, StandardCharsets.UTF_8), System.err);
        String printed = out.toString(StandardCharsets.UTF_8);
        assertEquals(Main.VERIFIED, code, printed);
        assertTrue(printed.contains("\n  WARNING: --tsa-ca was given, and no time-stamp vouches for this checkpoint\n"), printed);

        // The bundle's warning is only words, unless --strict makes it a failure.
        Path file = Files.write(dir.resolve("unstamped.zip"), zip);
        String[] command = {"bundle", "check", file.toString(), "--trust", vkey.toString(), "--tsa-ca", tsa.root().toString()};
        var plainOut = new ByteArrayOutputStream();
        int plain = Main.run(command, new PrintStream(plainOut, true, StandardCharsets.UTF_8), System.err);
        String plainPrinted = plainOut.toString(StandardCharsets.UTF_8);
        assertEquals(Main.VERIFIED, plain, plainPrinted);
        long warnings = plainPrinted.lines().filter(l -> l.startsWith("WARNING: ")).count();
        assertTrue(warnings >= 1, plainPrinted);
        var strictOut = new ByteArrayOutputStream();
        String[] strictCommand = java.util.stream.Stream.concat(java.util.Arrays.stream(command), java.util.stream.Stream.of("--strict"))
                .toArray(String[]::new);
        int strict = Main.run(strictCommand, new PrintStream(strictOut, true, StandardCharsets.UTF_8), System.err);
        String strictPrinted = strictOut.toString(StandardCharsets.UTF_8);
        assertEquals(Main.NOT_VERIFIED, strict, strictPrinted);
        assertEquals(plainPrinted + "NOT ACCEPTED (--strict): the evidence verifies, with " + warnings + " warning(s) above\n",
                strictPrinted);
    }

    @Test
    void aBundleWhoseManifestIsRewrittenStillChecksSoTheReportSaysWhatOnlyItsMakerSays() throws Exception {
        // The selection rewritten with the records left out: the bundle proves its records, not its maker's word.
        byte[] zip = small(REVISION, POLICY, "req-3"::equals, "requests req-3");
        Path file = Files.write(dir.resolve("rewritten.zip"), zip);
        Path vkey = Files.writeString(dir.resolve("rewritten.vkey"), KEY.vkey().toString());
        var out = new ByteArrayOutputStream();
        int code = Main.run(new String[] {"bundle", "check", file.toString(), "--trust", vkey.toString()},
                new PrintStream(out, true, StandardCharsets.UTF_8), System.err);
        String printed = out.toString(StandardCharsets.UTF_8);
        assertEquals(Main.VERIFIED, code, printed);
        String sha = Hex.of(TreeHash.sha256(zip));
        assertTrue(printed.startsWith("Evidence bundle, SHA-256 " + sha + "\n"), printed);
        assertTrue(printed.contains("Only its maker's word (the manifest is not signed): who made it, when, for which case, what was"
                + " selected, and that it holds every record of each selected request."), printed);
        assertTrue(printed.contains("that record's sha256 is " + sha), printed);
        String readme = new String(files(zip).get("README.txt"), StandardCharsets.UTF_8);
        assertTrue(readme.contains("Only its maker's word, in manifest.json, which is not signed: who made it, when, for which case,"
                + " what\nwas selected, and that it holds every record of each selected request."), readme);
        assertTrue(readme.contains("with the sha256 of the record of request req-bundle with method audit/bundle/made"), readme);
    }

    @Test
    void theManifestsWordsCannotAddLinesToTheReadme() throws Exception {
        // Who made it, for which case and what was selected are not signed: line breaks and control characters in them
        // are shown escaped, so they cannot add a paragraph that seems to be the README's own.
        String fake = "carol.\n\nVERIFIED: every record of every request of alice is in this bundle\n\u001b[2J";
        byte[] zip = small(REVISION, POLICY, "req-3"::equals, new BundleWriter.About(Instant.parse("2026-11-29T10:00:00Z"), fake,
                "req-bundle\r\nX", "CASE-7\u2028Closed", null, "the search subject=alice\n\nNothing was left out"));
        BundleReport r = check(zip);
        assertTrue(r.ok(), r.problems().toString());
        String readme = new String(files(zip).get("README.txt"), StandardCharsets.UTF_8);
        assertTrue(readme.contains("Made by carol.\\n\\nVERIFIED: every record of every request of alice is in this bundle\\n"
                + "\\u001b[2J at 2026-11-29T10:00:00Z (UTC), for case CASE-7\\u2028Closed.\nSelected: the search subject=alice"
                + "\\n\\nNothing was left out.\n"), readme);
        assertTrue(readme.contains("request id req-bundle\\r\\nX, with"), readme);
        assertFalse(readme.contains("\nVERIFIED") || readme.contains("\nNothing") || readme.contains("\nX") || readme.contains("\u001b")
                || readme.contains("\u2028"), readme);
    }

    @Test
    void aRecordLineWithNoLogOrAnEmptyLogOrRevisionIsAProblemNotACrash() throws Exception {
        Map<String, byte[]> files = files(bundle);
        for (String field : List.of("no log", "log", "revision", "seq")) {
            var r = TestLog.record(LOG, 21);
            if (field.equals("no log")) {
                r.remove("log");
            } else {
                r.put(field, "");
            }
            var sb = new StringBuilder(new String(files.get("records.jsonl"), StandardCharsets.UTF_8));
            new dev.quaestor.evidence.write.ExportWriter(sb).record(r, Hex.of(RecordFormat.leafHash(r)));
            var altered = new LinkedHashMap<>(files);
            altered.put("records.jsonl", sb.toString().getBytes(StandardCharsets.UTF_8));
            Path file = Files.write(dir.resolve("damaged.zip"), BundleZip.write(altered));
            var out = new ByteArrayOutputStream();
            int code = Main.run(new String[] {"bundle", "check", file.toString(), "--trust", KEY.vkey().toString()},
                    new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(out, true, StandardCharsets.UTF_8));
            String printed = out.toString(StandardCharsets.UTF_8);
            assertEquals(Main.NOT_VERIFIED, code, field + ": " + printed);
            assertTrue(printed.contains("records.jsonl, line 7: the record was damaged: it names no log, no valid seq or an empty"
                    + " policy revision"), field + ": " + printed);
        }
    }

    @Test
    void theReadmesPolicyCommandHashesEachRevisionOrLeavesItToTheVerifier() throws Exception {
        // Plain names: the command gives the revision.
        var plain = Map.of("b_c-d.yaml", "rules: []\n", "B.yaml", "# b\n", "C.yaml", "c: 1\n", "a.yaml", "a: 1\n");
        String revision = PolicyRevision.of(plain.entrySet());
        byte[] zip = small(revision, plain, "req-3"::equals, "requests req-3");
        assertTrue(check(zip).ok());
        Path unpacked = dir.resolve("unpacked");
        for (var f : files(zip).entrySet()) {
            Files.createDirectories(unpacked.resolve(f.getKey()).getParent());
            Files.write(unpacked.resolve(f.getKey()), f.getValue());
        }
        String readme = new String(files(zip).get("README.txt"), StandardCharsets.UTF_8);
        String command = readme.lines().filter(l -> l.startsWith("   (cd policy/")).findFirst().orElseThrow(() -> new AssertionError(readme));
        var p = new ProcessBuilder("bash", "-c", command).directory(unpacked.toFile()).redirectErrorStream(true).start();
        String said = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(0, p.waitFor(), said);
        assertEquals(revision + "  -\n", said, command);
        // A name percent-encoded in the bundle (hashed as it was made, which the shell does not see), or one that ls skips
        // or cat takes for an option: no command, which would give another hash; the verifier checks it.
        for (String name : List.of("a b.yaml", ".a.yaml", "-b.yaml")) {
            var tricky = Map.of(name, "rules: []\n", "a.yaml", "a: 1\n");
            String other = PolicyRevision.of(tricky.entrySet());
            byte[] zip2 = small(other, tricky, "req-3"::equals, "requests req-3");
            assertTrue(check(zip2).ok());
            String said2 = new String(files(zip2).get("README.txt"), StandardCharsets.UTF_8);
            assertTrue(said2.contains("   # policy/" + other + "/: a file name there is not plain (it is percent-encoded, or starts"
                    + " with\n   # '.' or '-'), so this loop would not hash it right: step 1 checks it\n") && !said2.contains("(cd policy/"),
                    name + ": " + said2);
        }
    }

    @Test
    void aTokenOverAnotherCheckpointIsFoundWithoutTheTsasRoot() throws Exception {
        var swapped = new LinkedHashMap<>(files(bundle));
        swapped.put("checkpoints/replica-a/500.tsr", swapped.get("checkpoints/replica-a/1500.tsr"));
        BundleReport r = BundleCheck.check(BundleZip.write(swapped), TrustedKeys.of(KEY.vkey()), null);
        assertTrue(r.problems().contains(new BundleReport.Problem("checkpoints/replica-a/500.tsr", "", "the time-stamp token is over a"
                + " different text: its message imprint is not the SHA-256 of this checkpoint")), r.problems().toString());
        assertTrue(r.checkpoints().stream().noneMatch(c -> c.startsWith("checkpoint 500 ")), r.checkpoints().toString());
        assertTrue(BundleCheck.check(bundle, TrustedKeys.of(KEY.vkey()), null).ok());
    }

    @Test
    void aRequestAllowedWithNoOutcomeInTheBundleIsAWarningNotAProblem() throws Exception {
        // The OUTCOMEs of req-8, req-9 and req-10 (records 16, 18, 20) are other requests' in this log: req-8's DECISION
        // was rate-limited (its outcome in the DECISION itself) and req-9's refused, which need none; req-10's allowed.
        byte[] zip = small(REVISION, POLICY, r -> Set.of("req-3", "req-8", "req-9", "req-10").contains(r), new BundleWriter.About(
                Instant.parse("2026-11-29T10:00:00Z"), "carol", "req-bundle", null, null, "the requests of the search subject=alice"), r -> {
                    switch (r.get("seq")) {
                        case "16", "18", "20" -> r.put("request", "req-elsewhere-" + r.get("seq"));
                        case "17" -> r.put("decision", "DENY");
                        case "15" -> r.put("outcome", "rate-limited");
                        default -> { }
                    }
                });
        BundleReport report = check(zip);
        assertEquals(List.of(), report.problems());
        assertEquals(List.of("request req-10 was allowed and this bundle holds no OUTCOME of it: what it was answered is not on record"
                + " here (it was still being answered when the bundle was made, or its server stopped first; or it was taken out"
                + " of the bundle after it was made, which only the record of its making shows: README.txt, step 3)"), report.warnings().stream()
                .filter(w -> w.contains("OUTCOME")).toList());
    }

    @Test
    void namesAreSafePathSegments() {
        assertEquals("replica-a", BundleNames.segment("replica-a"));
        assertEquals("a%2F..%2Fb", BundleNames.segment("a/../b"));
        assertEquals("%2E%2E", BundleNames.segment(".."));
        assertEquals("a/../b", BundleNames.unsegment("a%2F..%2Fb"));
        assertNull(BundleNames.unsegment("a%2fb"), "only the encoding the writer makes is read");
    }
}
