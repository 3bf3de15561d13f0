package dev.quaestor.evidence.check;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.quaestor.evidence.Anchor;
import dev.quaestor.evidence.TestLog;
import dev.quaestor.evidence.cli.Main;
import dev.quaestor.testtsa.OpensslTsa;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Checkpoints anchored by a time-stamping authority that is not ours (OpenSSL's {@code openssl ts -reply}):
 * an anchored log verifies, here and with {@code openssl ts -verify}, and the report says up to where
 * time-stamps vouch; a token over another checkpoint, from a TSA that is not pinned, or whose time disagrees
 * with its checkpoint's, and a truncated anchored range, each fail with the position named.
 */
class AnchorTest {

    static final TestLog.Key KEY = LogVerifierTest.KEY;
    static final String LOG = "replica-a";

    @TempDir
    static Path dir;
    static OpensslTsa tsa;
    static OpensslTsa unpinned;
    static TimeStampCheck pinned;
    /** When the checkpoints were signed: a few minutes ago, as a server that anchors as it goes. */
    static final Instant SIGNED = Instant.now().minusSeconds(300);

    @BeforeAll
    static void tsas() throws Exception {
        tsa = OpensslTsa.create(dir.resolve("tsa"), "Quaestor Test TSA");
        unpinned = OpensslTsa.create(dir.resolve("unpinned"), "Unpinned TSA");
        try (InputStream in = Files.newInputStream(tsa.root())) {
            pinned = new TimeStampCheck(TimeStampCheck.certificates(in), TimeStampCheck.MAX_DELAY);
        }
    }

    /**
     * 100 records, a second apart, then a checkpoint every 25 signed a few minutes ago, just after its records, the first
     * three time-stamped by the pinned TSA now.
     */
    static TestLog anchored() throws Exception {
        return anchored(SIGNED);
    }

    /** As {@link #anchored()}, the records dated from {@code from} on. */
    static TestLog anchored(Instant from) throws Exception {
        var log = new TestLog(KEY, LOG);
        for (int size = 25; size <= 100; size += 25) {
            while (log.tree.size() < size) {
                var r = TestLog.record(LOG, log.tree.size() + 1);
                r.put("time", from.plusSeconds(log.tree.size()).toString());
                log.append(r);
            }
            log.checkpointAt(SIGNED.plusSeconds(size));
        }
        for (long size = 25; size <= 75; size += 25) {
            log.anchor(size, stamp(tsa, log, size));
        }
        return log;
    }

    static byte[] stamp(OpensslTsa by, TestLog log, long size) throws Exception {
        return by.stamp(log.text(size).getBytes(StandardCharsets.UTF_8));
    }

    static Report verify(List<String> lines, TimeStampCheck stamps) {
        return TestLog.verify(lines, LogVerifierTest.TRUST, stamps, false);
    }

    static int lineOfCheckpoint(List<String> lines, long size) {
        for (int i = 0; i < lines.size(); i++) {
            if (lines.get(i).startsWith("{\"type\":\"checkpoint\"") && lines.get(i).contains("\"size\":" + size + ",")) {
                return i + 1;
            }
        }
        throw new IllegalArgumentException("no checkpoint at " + size);
    }

    @Test
    void anAnchoredLogVerifiesAndSaysUpToWhereTimeStampsVouch() throws Exception {
        var log = anchored();
        Instant before = Instant.now();
        Report r = verify(log.export(), pinned);
        assertTrue(r.ok(), r.toString());
        Report.Summary s = r.logs().get(0);
        assertEquals(4, s.checkpoints());
        assertEquals(3, s.anchors());
        assertEquals(75, s.anchoredThrough());
        assertEquals(25, s.unanchoredTail());
        assertTrue(!s.anchoredAt().isBefore(SIGNED) && !s.anchoredAt().isAfter(before.plusSeconds(5)), "" + s.anchoredAt());
        assertTrue(r.warnings().stream().anyMatch(w -> w.startsWith("log replica-a: time-stamps vouch for records up to seq 75 (CN=Quaestor"
                + " Test TSA saw them by ") && w.contains("the last 25 record(s) rest on the log's signing key alone")), r.warnings().toString());

        // OpenSSL agrees: each token is over the checkpoint's text and chains to the TSA's root, not to another.
        for (long size = 25; size <= 75; size += 25) {
            byte[] text = log.text(size).getBytes(StandardCharsets.UTF_8);
            byte[] token = tokenIn(log, size);
            assertNull(OpensslTsa.verify(dir, text, token, tsa.root()), "openssl ts -verify of the token at " + size);
            assertNotNull(OpensslTsa.verify(dir, text, token, unpinned.root()), "openssl checks the root too");
        }

        // Without the TSA's root, the tokens are not checked, and the report says so.
        Report unchecked = verify(log.export(), null);
        assertTrue(unchecked.ok(), unchecked.toString());
        assertEquals(0, unchecked.logs().get(0).anchors());
        assertTrue(unchecked.warnings().contains("3 checkpoint(s) carry an RFC 3161 time-stamp token, which was not checked: pin the"
                + " time-stamping authority's root with --tsa-ca to check them"), unchecked.warnings().toString());
    }

    /** The token on the export line of the checkpoint at {@code size}. */
    static byte[] tokenIn(TestLog log, long size) {
        for (String line : log.checkpointLines) {
            if (line.contains("\"size\":" + size + ",")) {
                String note = dev.quaestor.evidence.FlatJson.read(line, 0).get("note");
                return Anchor.find(note);
            }
        }
        throw new IllegalArgumentException("no checkpoint at " + size);
    }

    @Test
    void aTokenOverADifferentCheckpointFailsAtThatCheckpoint() throws Exception {
        var log = anchored();
        log.anchor(50, tokenIn(log, 25));
        var lines = log.export();
        Report r = verify(lines, pinned);
        Problem p = LogVerifierTest.only(r);
        assertEquals(50, p.seq());
        assertEquals(lineOfCheckpoint(lines, 50), p.line());
        assertEquals("the time-stamp token of the checkpoint on line " + p.line() + " (log replica-a, 50 records) is over a different"
                + " text: its message imprint is not the SHA-256 of this checkpoint", p.message());
        assertEquals(1, r.problems().size(), r.toString());
        // The records still match their checkpoints; only the time-stamp of that one is refused.
        assertEquals(4, r.logs().get(0).checkpoints());
        assertEquals(75, r.logs().get(0).anchoredThrough());
        // Whether a token is over its checkpoint needs no TSA root: it is checked without --tsa-ca too.
        Problem unpinned = LogVerifierTest.only(verify(lines, null));
        assertEquals(p.message(), unpinned.message());
    }

    @Test
    void aTokenFromATsaThatIsNotPinnedFails() throws Exception {
        var log = anchored();
        log.anchor(75, stamp(unpinned, log, 75));
        var lines = log.export();
        Report r = verify(lines, pinned);
        Problem p = LogVerifierTest.only(r);
        assertEquals(75, p.seq());
        assertEquals(lineOfCheckpoint(lines, 75), p.line());
        assertTrue(p.message().startsWith("the time-stamp token of the checkpoint on line " + p.line() + " (log replica-a, 75 records)"
                + " is from a TSA whose certificate (CN=Unpinned TSA) does not chain to a pinned TSA root (--tsa-ca)"), p.message());
        assertEquals(50, r.logs().get(0).anchoredThrough(), "only the pinned TSA's tokens vouch");

        // Pinning that TSA's root too makes it count.
        var both = new ArrayList<java.security.cert.X509Certificate>();
        for (Path root : List.of(tsa.root(), unpinned.root())) {
            try (InputStream in = Files.newInputStream(root)) {
                both.addAll(TimeStampCheck.certificates(in));
            }
        }
        Report r2 = verify(lines, new TimeStampCheck(both, TimeStampCheck.MAX_DELAY));
        assertTrue(r2.ok(), r2.toString());
        assertEquals(75, r2.logs().get(0).anchoredThrough());
    }

    @Test
    void aTokenWhoseTimeDisagreesWithItsCheckpointFails() throws Exception {
        // A checkpoint signed two hours before its token: as a key holder would re-sign a rewritten log today.
        var log = new TestLog(KEY, LOG);
        log.appendTo(25, Long.MAX_VALUE);
        log.checkpointAt(SIGNED);
        log.appendTo(50, Long.MAX_VALUE);
        Instant twoHoursAgo = Instant.now().minus(Duration.ofHours(2));
        log.checkpointAt(twoHoursAgo);
        log.anchor(25, stamp(tsa, log, 25));
        log.anchor(50, stamp(tsa, log, 50));
        var lines = log.export();
        Problem p = LogVerifierTest.only(verify(lines, pinned));
        assertEquals(50, p.seq());
        assertEquals(lineOfCheckpoint(lines, 50), p.line());
        assertTrue(p.message().matches("the time-stamp token of the checkpoint on line " + p.line() + " \\(log replica-a, 50 records\\)"
                + " was made at \\S+, 2 h after the checkpoint's time \\S+; a checkpoint is anchored within 1 h \\(--tsa-max-delay\\):"
                + " a later token does not show when it was signed"), p.message());
        // A longer allowance is the auditor's choice.
        assertTrue(verify(lines, new TimeStampCheck(pinnedRoots(), Duration.ofHours(3))).ok());

        // A checkpoint that claims a time after its token's.
        var future = new TestLog(KEY, LOG);
        future.appendTo(25, Long.MAX_VALUE);
        future.checkpointAt(Instant.now().plus(Duration.ofHours(1)));
        future.anchor(25, stamp(tsa, future, 25));
        Problem early = LogVerifierTest.only(verify(future.export(), pinned));
        assertEquals(25, early.seq());
        assertTrue(early.message().contains(" was made at ") && early.message().contains(", before the checkpoint's own time "),
                early.message());
    }

    static List<java.security.cert.X509Certificate> pinnedRoots() throws Exception {
        try (InputStream in = Files.newInputStream(tsa.root())) {
            return TimeStampCheck.certificates(in);
        }
    }

    @Test
    void aTruncatedAnchoredRangeFailsAtItsFirstMissingRecord() throws Exception {
        var log = anchored();
        // Records 61 to 100 removed, and the last checkpoint with them; the time-stamped checkpoint at 75 stays.
        var lines = new ArrayList<>(log.export());
        lines.removeIf(l -> l.contains("\"size\":100,"));
        lines.subList(TestLog.indexOfRecord(lines, 61), lines.size()).clear();
        Report r = verify(lines, pinned);
        Problem p = LogVerifierTest.only(r);
        assertEquals(61, p.seq());
        assertEquals(lineOfCheckpoint(lines, 75), p.line());
        assertTrue(p.message().startsWith("records are missing at the end of log replica-a: the export ends at seq 60, but a signed"
                + " checkpoint (line " + p.line() + ") covers 75 records, and a time-stamping authority (CN=Quaestor Test TSA) saw"
                + " that checkpoint at "), p.message());
    }

    @Test
    void aTruncationAfterTheLastAnchorCannotBeSeenOfflineAndTheReportSaysWhereAnchorsEnd() throws Exception {
        var log = anchored();
        // Records 76 to 100, the checkpoint that signed them and the stored nodes over them, removed: nothing left in
        // the export shows it. This is the exposure window docs/audit.md states; the report says where the
        // time-stamps end, and when.
        var lines = new ArrayList<>(log.export());
        lines.removeIf(l -> l.contains("\"size\":100,") || l.startsWith("{\"type\":\"node\"") && lastOfNode(l) > 75);
        lines.subList(TestLog.indexOfRecord(lines, 76), lines.size()).clear();
        Report r = verify(lines, pinned);
        assertTrue(r.ok(), r.toString());
        assertEquals(75, r.logs().get(0).lastSeq());
        assertEquals(75, r.logs().get(0).anchoredThrough());
        assertNotNull(r.logs().get(0).anchoredAt());
    }

    /** The last record a stored node's line covers. */
    static long lastOfNode(String line) {
        var m = dev.quaestor.evidence.FlatJson.read(line, 0);
        return (Long.parseLong(m.get("index")) + 1) << Integer.parseInt(m.get("level"));
    }

    @Test
    void aDamagedTokenFails() throws Exception {
        var log = anchored();
        byte[] token = tokenIn(log, 50);
        token[token.length - 10] ^= 0x01; // the TSA's signature ends the token
        log.anchor(50, token);
        var exported = log.export();
        Problem p = LogVerifierTest.only(verify(exported, pinned));
        assertEquals(50, p.seq());
        assertTrue(p.message().startsWith("the time-stamp token of the checkpoint on line " + lineOfCheckpoint(exported, 50)
                + " (log replica-a, 50 records) "), p.message());
        assertFalse(p.message().contains("null"), p.message());

        // A time-stamp line under another key id (its first bytes changed): named as damaged; the checkpoint's
        // signature still counts.
        var garbled = anchored();
        var lines = new ArrayList<>(garbled.export());
        int at = lineOfCheckpoint(lines, 50) - 1;
        lines.set(at, lines.get(at).replaceFirst("rfc3161-timestamp [A-Za-z0-9+/]{8}", "rfc3161-timestamp AAAAAAAA"));
        Report r = verify(lines, pinned);
        Problem damaged = LogVerifierTest.only(r);
        assertEquals("the checkpoint on line " + (at + 1) + " (log replica-a, 50 records) is damaged: its time-stamp line does not"
                + " hold a token", damaged.message());
        assertEquals(4, r.logs().get(0).checkpoints());
    }

    @Test
    void everyDamagedByteOfATokenIsReportedAsAFailedCheckNeverAsAnError() throws Exception {
        var log = anchored();
        String text = log.text(50);
        byte[] token = tokenIn(log, 50);
        pinned.check(token, text, SIGNED.plusSeconds(50)); // the token as the TSA made it passes
        // BouncyCastle reads some parts of a token only when they are asked for, so damage can surface anywhere in the
        // check: whatever byte is changed, the answer is a failed check (NOT VERIFIED), not an exception that ends it.
        // And a damaged token passes only where the damage lies in a part of it that no check relies on (none of them
        // signed): a change of the time-stamp (TSTInfo), of the signed attributes, of the signature or of the signer's
        // certificate always fails.
        List<Part> unchecked = uncheckedParts(token);
        var passedElsewhere = new ArrayList<String>();
        int passed = 0;
        for (int i = 0; i < token.length; i++) {
            for (int bit : new int[] {0x01, 0x80}) {
                byte[] damaged = token.clone();
                damaged[i] ^= (byte) bit;
                try {
                    pinned.check(damaged, text, SIGNED.plusSeconds(50));
                    passed++;
                    int at = i;
                    if (unchecked.stream().noneMatch(p -> p.der().covers(at))) {
                        passedElsewhere.add("byte " + i + " ^ " + bit);
                    }
                } catch (Refusal expected) {
                    // the damage is found
                } catch (RuntimeException e) {
                    throw new AssertionError("byte " + i + " ^ " + bit + ": " + e, e);
                }
            }
        }
        assertEquals(List.of(), passedElsewhere, "damaged tokens that passed the check, outside the token's unchecked parts "
                + unchecked + " (" + passed + " of " + 2 * token.length + " passed in all)");
    }

    /** A part of a token, named. */
    record Part(String name, Der der) {
        @Override
        public String toString() {
            return name + " [" + der.start() + ", " + der.end() + ")";
        }
    }

    /**
     * The parts of a token (a CMS ContentInfo holding a SignedData) that no check relies on, none of them signed:
     * <ul>
     * <li>the ContentInfo's content type, the SignedData's version, its list of digest algorithms and the SignerInfo's
     * version, which BouncyCastle takes as they come (the signer's own algorithms are the ones used);
     * <li>the parameters of the SignerInfo's digest and signature algorithms (a NULL for SHA-256 and RSA), which it
     * reads leniently;
     * <li>the certificates the token carries besides its signer's (the TSA's root): the root is pinned (--tsa-ca),
     * and the signer's chain to it, built on the first check of the token as the TSA made it, is remembered, so the
     * carried copy is not read again.
     * </ul>
     */
    static List<Part> uncheckedParts(byte[] token) throws Exception {
        Der contentInfo = Der.at(token, 0);
        Der signedData = contentInfo.child(1).child(0);
        List<Der> sd = signedData.children();
        var parts = new ArrayList<Part>();
        parts.add(new Part("the ContentInfo's content type", contentInfo.child(0)));
        parts.add(new Part("the SignedData's version", sd.get(0)));
        parts.add(new Part("the SignedData's digest algorithms", sd.get(1)));
        var t = new org.bouncycastle.tsp.TimeStampToken(new org.bouncycastle.cms.CMSSignedData(token));
        java.util.Collection<org.bouncycastle.cert.X509CertificateHolder> named = t.getCertificates().getMatches(t.getSID());
        byte[] signer = named.iterator().next().getEncoded();
        Der certificates = sd.stream().filter(d -> d.tag() == 0xA0).findFirst().orElseThrow();
        int others = 0;
        for (Der c : certificates.children()) {
            if (!java.util.Arrays.equals(c.bytes(), signer)) {
                parts.add(new Part("a certificate besides the signer's", c));
                others++;
            }
        }
        assertEquals(certificates.children().size() - 1, others, "the signer's certificate is among those the token carries");
        // SignerInfo: version, sid, digestAlgorithm, [0] signedAttrs, signatureAlgorithm, signature, [1] unsignedAttrs.
        List<Der> signerInfo = sd.get(sd.size() - 1).child(0).children().stream().filter(d -> d.tag() != 0xA0 && d.tag() != 0xA1)
                .toList();
        assertEquals(5, signerInfo.size(), "version, sid, digest algorithm, signature algorithm, signature");
        parts.add(new Part("the SignerInfo's version", signerInfo.get(0)));
        parts.add(new Part("the parameters of the SignerInfo's digest algorithm", signerInfo.get(2).child(1)));
        parts.add(new Part("the parameters of the SignerInfo's signature algorithm", signerInfo.get(3).child(1)));
        return parts;
    }

    /** One DER element of {@code b}: its tag, where it starts, where its value starts, and where it ends (exclusive). */
    record Der(byte[] b, int tag, int start, int value, int end) {
        static Der at(byte[] b, int start) {
            int i = start + 1;
            int length = b[i++] & 0xFF;
            if (length > 0x80) {
                int n = length & 0x7F;
                length = 0;
                for (int k = 0; k < n; k++) {
                    length = length << 8 | b[i++] & 0xFF;
                }
            }
            return new Der(b, b[start] & 0xFF, start, i, i + length);
        }

        List<Der> children() {
            var children = new ArrayList<Der>();
            for (int i = value; i < end; i = children.get(children.size() - 1).end) {
                children.add(at(b, i));
            }
            return children;
        }

        Der child(int n) {
            return children().get(n);
        }

        boolean covers(int offset) {
            return offset >= start && offset < end;
        }

        byte[] bytes() {
            return java.util.Arrays.copyOfRange(b, start, end);
        }
    }

    @Test
    void historyDatedLongBeforeItsFirstTimeStampIsReportedAndRefusedPastTheGapAllowed() throws Exception {
        // An honest log: each record time-stamped minutes after its time (here: signed 5 minutes ago, stamped now).
        Report honest = verify(anchored().export(), pinned);
        assertTrue(honest.ok(), honest.toString());
        Report.Summary s = honest.logs().get(0);
        assertEquals(1, s.anchorGapSeq());
        assertTrue(s.anchorGap().toSeconds() >= 300 && s.anchorGap().toSeconds() < 600, "" + s.anchorGap());
        // A key holder's rewrite made today of history dated a week ago: signed and time-stamped now, every check holds,
        // but its records are dated a week before the first time-stamp that covers them.
        Path export = Files.writeString(dir.resolve("backdated.jsonl"), TestLog.text(anchored(SIGNED.minus(Duration.ofDays(7)))
                .export()));
        String key = KEY.vkey().toString();
        Run shown = main("verify", export.toString(), "--trust", key, "--tsa-ca", tsa.root().toString(), "--allow-unsigned-tail");
        assertEquals(Main.VERIFIED, shown.code, shown.out);
        assertTrue(shown.out.contains("  records dated at most 168 h 5 min before the first time-stamp that covers them (record 1)\n")
                || shown.out.contains("  records dated at most 168 h 6 min before"), shown.out);
        Run refused = main("verify", export.toString(), "--trust", key, "--tsa-ca", tsa.root().toString(), "--allow-unsigned-tail",
                "--max-anchor-gap", "1h");
        assertEquals(Main.NOT_VERIFIED, refused.code, refused.out);
        assertTrue(refused.out.contains("  PROBLEM: record 1 of log replica-a is dated " + SIGNED.minus(Duration.ofDays(7))
                + ", 168 h "), refused.out);
        assertTrue(refused.out.contains(" before the first time-stamp that covers it (CN=Quaestor Test TSA saw the checkpoint at"
                + " 25 records, line 2, at "), refused.out);
        assertTrue(refused.out.contains("): more than --max-anchor-gap allows"), refused.out);
        Path honestFile = Files.writeString(dir.resolve("honest.jsonl"), TestLog.text(anchored().export()));
        assertEquals(Main.VERIFIED, main("verify", honestFile.toString(), "--trust", key, "--tsa-ca", tsa.root().toString(),
                "--allow-unsigned-tail", "--max-anchor-gap", "1h").code);
        assertEquals(Main.USAGE, main("verify", honestFile.toString(), "--trust", key, "--max-anchor-gap", "1h").code);
    }

    @Test
    void theCommandLineChecksTokensInExportsAndProofs() throws Exception {
        var log = anchored();
        Path export = Files.writeString(dir.resolve("anchored.jsonl"), TestLog.text(log.export()));
        String key = KEY.vkey().toString();
        Run ok = main("verify", export.toString(), "--trust", key, "--tsa-ca", tsa.root().toString());
        assertEquals(Main.VERIFIED, ok.code, ok.out);
        assertTrue(ok.out.contains("Trusted TSA roots: CN=Quaestor Test TSA Root (tokens at most 1 h after their checkpoint)"), ok.out);
        assertTrue(ok.out.contains("  3 of them time-stamped; time-stamps vouch up to seq 75 (seen by the TSA at "), ok.out);
        Run wrongRoot = main("verify", export.toString(), "--trust", key, "--tsa-ca", unpinned.root().toString());
        assertEquals(Main.NOT_VERIFIED, wrongRoot.code, wrongRoot.out);
        assertTrue(wrongRoot.out.contains("does not chain to a pinned TSA root") && wrongRoot.out.contains("2 more time-stamp token(s)"
                + " of log replica-a were refused as well"), wrongRoot.out);
        assertEquals(Main.USAGE, main("verify", export.toString(), "--trust", key, "--tsa-ca", export.toString()).code);
        assertEquals(Main.USAGE, main("verify", export.toString(), "--trust", key, "--tsa-max-delay", "2h").code);
        assertEquals(Main.USAGE, main("verify", export.toString(), "--trust", key, "--tsa-ca", tsa.root().toString(),
                "--tsa-max-delay", "soon").code);

        // A proof of one record carries its checkpoint's token, and still checks offline.
        Path proof = dir.resolve("r42.tlog-proof");
        Run proved = main("prove", export.toString(), "replica-a/42", "--out", proof.toString());
        assertEquals(Main.VERIFIED, proved.code, proved.out);
        assertNotNull(Anchor.find(Files.readString(proof).substring(Files.readString(proof).indexOf("\n\n") + 2)), "the token is in the proof");
        Run checked = main("check", proof.toString(), "--trust", key, "--tsa-ca", tsa.root().toString());
        assertEquals(Main.VERIFIED, checked.code, checked.out);
        assertTrue(checked.out.contains("  time-stamped: CN=Quaestor Test TSA saw this checkpoint at "), checked.out);
        Run unpinnedProof = main("check", proof.toString(), "--trust", key, "--tsa-ca", unpinned.root().toString());
        assertEquals(Main.NOT_VERIFIED, unpinnedProof.code, unpinnedProof.out);
        assertTrue(unpinnedProof.out.contains("NOT VERIFIED: the checkpoint's time-stamp token is from a TSA whose certificate"),
                unpinnedProof.out);
        Run noRoot = main("check", proof.toString(), "--trust", key);
        assertEquals(Main.VERIFIED, noRoot.code, noRoot.out);
        assertTrue(noRoot.out.contains("  the checkpoint carries a time-stamp token, not checked (no --tsa-ca)"), noRoot.out);
        // A token over another checkpoint is found without the TSA's root.
        String text = Files.readString(proof);
        Path swapped = Files.writeString(dir.resolve("swapped.tlog-proof"), text.replace(Anchor.field(tokenIn(log, 50)),
                Anchor.field(tokenIn(log, 25))));
        Run other = main("check", swapped.toString(), "--trust", key);
        assertEquals(Main.NOT_VERIFIED, other.code, other.out);
        assertTrue(other.out.contains("the checkpoint's time-stamp token is over a different text"), other.out);
    }

    record Run(int code, String out) {
    }

    static Run main(String... args) {
        var out = new ByteArrayOutputStream();
        var print = new PrintStream(out, true, StandardCharsets.UTF_8);
        int code = Main.run(args, print, print);
        return new Run(code, out.toString(StandardCharsets.UTF_8));
    }
}
