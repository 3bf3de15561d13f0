package dev.quaestor.evidence.cli;

import dev.quaestor.evidence.FlatJson;
import dev.quaestor.evidence.Hex;
import dev.quaestor.evidence.RecordFormat;
import dev.quaestor.evidence.TestLog;
import dev.quaestor.evidence.check.LogVerifierTest;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The command line, end to end on files: what it prints, and its exit codes (0 verified, 1 not verified, 2 usage). */
class MainTest {

    @TempDir
    Path dir;
    Path export;
    Path key;
    String vkey = LogVerifierTest.KEY.vkey().toString();

    record Result(int code, String out, String err) {
    }

    Result main(String... args) {
        var out = new ByteArrayOutputStream();
        var err = new ByteArrayOutputStream();
        int code = Main.run(args, new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
        return new Result(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    String path(String name) {
        return dir.resolve(name).toString();
    }

    @BeforeEach
    void files() throws Exception {
        var log = new TestLog(LogVerifierTest.KEY, "replica-a").appendTo(37, 1000);
        log.monthEnd();
        log.appendTo(100, 25);
        log.appendTo(104, 1000); // four records not signed yet
        export = Files.writeString(dir.resolve("export.jsonl"), TestLog.text(log.export()));
        Files.writeString(dir.resolve("archived.jsonl"), TestLog.text(log.exportArchivedThrough(37)));
        key = Files.writeString(dir.resolve("audit.pub"), "# the log's verifier key\n" + vkey + "\n");
    }

    @Test
    void helpAndUsageErrors() {
        Result help = main("--help");
        assertEquals(0, help.code);
        assertTrue(help.out.contains("verify EXPORT --trust KEY.pub") && help.out.contains("Exit codes:")
                && help.out.contains("1  the evidence does not verify"), help.out);
        assertEquals(2, main().code);
        Result unknown = main("frobnicate");
        assertEquals(2, unknown.code);
        assertEquals("quaestor-verify: unknown command \"frobnicate\"\nRun java -jar quaestor-verify.jar --help for how to use it.\n",
                unknown.err);
        Result noKey = main("verify", export.toString());
        assertEquals(2, noKey.code);
        assertTrue(noKey.err.contains("say which key to trust with --trust KEY.pub"), noKey.err);
        Result missing = main("verify", path("nope.jsonl"), "--trust", key.toString());
        assertEquals(2, missing.code);
        assertTrue(missing.err.contains("cannot read " + path("nope.jsonl") + ": no such file"), missing.err);
        Result badKey = main("verify", export.toString(), "--trust", "not-a-key");
        assertEquals(2, badKey.code);
        assertTrue(badKey.err.contains("--trust: not a key"), badKey.err);
        Result noFile = main("verify", export.toString(), "--trust", path("nope.vkey"));
        assertEquals(2, noFile.code);
        assertTrue(noFile.err.contains("--trust: not a key") && noFile.err.contains("there is no file of that name"), noFile.err);
        Path empty = Path.of(path("empty.vkey"));
        try {
            Files.writeString(empty, "# keys\n\n");
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        Result noKeys = main("verify", export.toString(), "--trust", empty.toString());
        assertEquals(2, noKeys.code, "a key file without a key is a usage error, not a verdict: " + noKeys.out + noKeys.err);
        assertTrue(noKeys.err.contains("--trust " + empty + ": the file holds no key"), noKeys.err);
        // A file that exists but is not a regular one is read as a file of keys, not taken for a missing file.
        if (Files.exists(Path.of("/dev/null"))) {
            Result devNull = main("verify", export.toString(), "--trust", "/dev/null");
            assertEquals(2, devNull.code);
            assertTrue(devNull.err.contains("--trust /dev/null: the file holds no key"), devNull.err);
            assertFalse(devNull.err.contains("no file of that name"), devNull.err);
        }
        Result directory = main("verify", export.toString(), "--trust", Path.of(path("empty.vkey")).getParent().toString());
        assertEquals(2, directory.code);
        assertTrue(directory.err.contains("is a directory, not a key or a file of keys"), directory.err);
        assertEquals(2, main("verify", export.toString(), "--trust", key.toString(), "--frob").code);
    }

    @Test
    void filesLargerThanAnyTheServerWritesAreRefusedUnread() throws Exception {
        // Sparse files: their size is what is checked, before a byte is read.
        for (String[] c : new String[][] {{"proof.txt", "16777217", "check", "more than the 16,777,216 a proof file may be"},
            {"bundle.zip", "1073741825", "bundle", "more than the 1,073,741,824 a bundle may be"},
            {"note.txt", "16777217", "consistency", "more than the 16,777,216 a proof, note or key file may be"}}) {
            Path big = dir.resolve(c[0]);
            try (var f = new java.io.RandomAccessFile(big.toFile(), "rw")) {
                f.setLength(Long.parseLong(c[1]));
            }
            String[] args = switch (c[2]) {
                case "bundle" -> new String[] {"bundle", "check", big.toString(), "--trust", key.toString()};
                case "consistency" -> new String[] {"consistency", big.toString(), big.toString(), big.toString(), "--trust", key.toString()};
                default -> new String[] {"check", big.toString(), "--trust", key.toString()};
            };
            Result r = main(args);
            assertEquals(2, r.code, r.err);
            assertTrue(r.err.contains("cannot read " + big + ": it is " + dev.quaestor.evidence.Plain.n(Long.parseLong(c[1]))
                    + " bytes, " + c[3]), r.err);
        }
    }

    @Test
    void verifyPrintsEachLogAndTheFirstProblem() throws Exception {
        // The export ends with four records no checkpoint covers yet: not verified, unless that tail is accepted.
        Result tail = main("verify", export.toString(), "--trust", key.toString());
        assertEquals(1, tail.code, tail.out + tail.err);
        assertTrue(tail.out.contains("Log replica-a: NOT VERIFIED\n  records 1 to 104 (104 read, format version 2 and 3)\n"
                + "  4 signed checkpoint(s) match the records; signed up to seq 100\n  12 stored node(s) compared with the records\n"
                + "  PROBLEM: the last 4 record(s) of log replica-a"
                + " (seq 101 to 104) are covered by no signed checkpoint"), tail.out);
        assertTrue(tail.out.contains("or accept them with --allow-unsigned-tail\n    expected: records signed up to seq 104\n"
                + "    found:    signed up to seq 100\n"), tail.out);
        assertTrue(tail.out.contains("NOT VERIFIED: 104 records in 1 log(s)"), tail.out);
        Result ok = main("verify", export.toString(), "--trust", key.toString(), "--allow-unsigned-tail");
        assertEquals(0, ok.code, ok.out + ok.err);
        assertTrue(ok.out.contains("Log replica-a: verified\n  records 1 to 104 (104 read, format version 2 and 3)\n  4 signed checkpoint(s) match the records; signed up to seq 100\n"), ok.out);
        assertTrue(ok.out.contains("WARNING: log replica-a: the last 4 record(s) (seq 101 to 104) are not yet covered by a signed"
                + " checkpoint"), ok.out);
        assertTrue(ok.out.contains("VERIFIED: 100 records covered by signed checkpoints; 4 later record(s) of log replica-a (seq 101"
                + " to 104) are covered by no signature (--allow-unsigned-tail); 1 log(s)"), ok.out);
        // Verified without a checkpoint kept apart: what it cannot see is said next to the verdict.
        assertTrue(ok.out.contains("\nRecords cut from the end of a log leave no trace in what remains: to find them, keep a checkpoint"
                + " apart (GET /audit/checkpoint?log=LOG&size=N, N a size the log was signed at, such as its signedThrough in"
                + " /audit/verify) and give it with --expect-checkpoint.\nVERIFIED: "), ok.out);
        Result okJson = main("verify", export.toString(), "--trust", key.toString(), "--allow-unsigned-tail", "--json", "-");
        assertEquals(0, okJson.code);
        assertTrue(okJson.out.startsWith("{\"verified\":true,\"records\":104,\"covered\":100,\"logs\":[{\"log\":\"replica-a\""),
                okJson.out);
        assertTrue(okJson.out.contains("\"signedThrough\":100,\"unsignedTail\":4,"), okJson.out);
        // --strict: the accepted tail's warning fails the check, in text and in JSON, where the JSON stays as it was.
        Result strict = main("verify", export.toString(), "--trust", key.toString(), "--allow-unsigned-tail", "--strict");
        assertEquals(1, strict.code, strict.out + strict.err);
        assertTrue(strict.out.endsWith("NOT ACCEPTED (--strict): the evidence verifies, with 1 warning(s) above\n"), strict.out);
        Result strictJson = main("verify", export.toString(), "--trust", key.toString(), "--allow-unsigned-tail", "--strict",
                "--json", "-");
        assertEquals(1, strictJson.code);
        assertEquals(okJson.out, strictJson.out);
        Result tailJson = main("verify", export.toString(), "--trust", key.toString(), "--json", "-");
        assertEquals(1, tailJson.code);
        assertTrue(tailJson.out.contains("\"problems\":[{\"kind\":\"UNSIGNED_TAIL\",\"log\":\"replica-a\",\"seq\":101,"), tailJson.out);
        assertEquals(0, main("verify", export.toString(), "--trust", vkey, "--allow-unsigned-tail").code);

        var lines = Files.readAllLines(export);
        int i = TestLog.indexOfRecord(lines, 60);
        lines.set(i, lines.get(i).replace("\"ALLOW\"", "\"DENY\""));
        Files.write(export, lines);
        Result broken = main("verify", export.toString(), "--trust", key.toString());
        assertEquals(1, broken.code);
        assertTrue(broken.out.contains("Log replica-a: NOT VERIFIED\n"), broken.out);
        assertTrue(broken.out.contains("  PROBLEM: record 60 of log replica-a (line " + (i + 1) + ") was changed after it was written:"
                + " its content no longer matches its hash\n"), broken.out);
        assertTrue(broken.out.contains("NOT VERIFIED: 104 records"), broken.out);
        // With its evidence: the stored hash, the hash of the content as it is now, the record's line.
        Map<String, String> changed = FlatJson.read(lines.get(i), i + 1);
        String storedHash = changed.remove("hash");
        changed.remove("type");
        String contentHash = Hex.of(RecordFormat.leafHash(changed));
        assertTrue(broken.out.contains("its content no longer matches its hash\n    expected: " + storedHash + "\n    found:    "
                + contentHash + "\n    lines:    record 60 (line " + (i + 1) + ")\n"), broken.out);
        Result json = main("verify", export.toString(), "--trust", key.toString(), "--json", "-");
        assertEquals(1, json.code);
        assertTrue(json.out.startsWith("{\"verified\":false,\"records\":104,\"covered\":0,\"logs\":[{\"log\":\"replica-a\",\"records\":104,"),
                json.out);
        assertTrue(json.out.contains(",\"problems\":[{\"kind\":\"RECORD_CHANGED\",\"log\":\"replica-a\",\"seq\":60,\"line\":"
                + (i + 1) + ",\"message\":\"record 60 of log replica-a (line " + (i + 1) + ") was changed after it was written: its"
                + " content no longer matches its hash\",\"expected\":\"" + storedHash + "\",\"found\":\"" + contentHash
                + "\",\"involved\":[{\"what\":\"record 60\",\"line\":" + (i + 1) + "}]}],\"warnings\":["), json.out);
        assertFalse(json.out.contains("PROBLEM"), "--json - prints the JSON instead of the text");
        Result both = main("verify", export.toString(), "--trust", key.toString(), "--json", path("report.json"));
        assertEquals(1, both.code);
        assertTrue(both.out.contains("    expected: " + storedHash), both.out);
        assertEquals(json.out, Files.readString(dir.resolve("report.json")));
        // The plain reader, line by line, finds the same.
        Result plain = main("verify", export.toString(), "--trust", key.toString(), "--plain");
        assertEquals(1, plain.code);
        assertTrue(plain.out.contains("  PROBLEM: record 60 of log replica-a (line " + (i + 1) + ") was changed after it was written:"
                + " its content no longer matches its hash\n"), plain.out);

        Files.writeString(export, "{\"type\":\"key\",\"vkey\":\"x\"}\n{\"type\":\"record\",\"seq\":1,}\n");
        Result unreadable = main("verify", export.toString(), "--trust", key.toString());
        assertEquals(2, unreadable.code);
        assertTrue(unreadable.err.contains("is not a readable export: line 2: expected a name in double quotes"), unreadable.err);
    }

    @Test
    void proveAndCheckOneRecordAndAWholeRequest() throws Exception {
        Result proved = main("prove", export.toString(), "replica-a/42", "--out", path("r42.tlog-proof"));
        assertEquals(0, proved.code, proved.out + proved.err);
        assertTrue(proved.out.startsWith("Proved record 42 of log replica-a (line "), proved.out);
        assertTrue(proved.out.contains("against the checkpoint of quaestor.audit/replica-a at 100 records"), proved.out);
        Result checked = main("check", path("r42.tlog-proof"), "--trust", key.toString());
        assertEquals(0, checked.code, checked.out + checked.err);
        assertTrue(checked.out.contains("Record 42 of log replica-a\n"), checked.out);
        assertTrue(checked.out.contains("  VERIFIED: this record is in log quaestor.audit/replica-a as signed at 100 records"),
                checked.out);
        Result untrusted = main("check", path("r42.tlog-proof"), "--trust", LogVerifierTest.OTHER.vkey().toString());
        assertEquals(1, untrusted.code);
        assertTrue(untrusted.out.contains("NOT VERIFIED: the checkpoint is signed by a key that is not trusted: quaestor.audit+"
                + LogVerifierTest.KEY.vkey().keyIdHex()), untrusted.out);

        // Records 41 and 42 share request req-21: one proof each.
        Result request = main("prove", export.toString(), "req-21", "--out", path("req-21.tlog-proof"), "--trust", key.toString());
        assertEquals(0, request.code, request.out + request.err);
        Result both = main("check", path("req-21.tlog-proof"), "--trust", key.toString());
        assertEquals(0, both.code, both.out);
        assertTrue(both.out.contains("Record 41 of log replica-a") && both.out.contains("Record 42 of log replica-a")
                && both.out.endsWith("VERIFIED: 2 record(s)\n"), both.out);

        Result none = main("prove", export.toString(), "replica-a/999", "--out", path("x"));
        assertEquals(2, none.code);
        assertTrue(none.err.contains("the export holds no record replica-a/999"), none.err);
        Result unsigned = main("prove", export.toString(), "replica-a/102", "--out", path("x"));
        assertEquals(1, unsigned.code);
        assertTrue(unsigned.out.contains("no checkpoint in the export covers it yet"), unsigned.out);
        Result notProof = main("check", export.toString(), "--trust", key.toString());
        assertEquals(2, notProof.code);
    }

    @Test
    void recordsNoSignatureCoversAreNotVerified() throws Exception {
        // One made-up record with its right hash, and no checkpoint: not verified, whatever the flags.
        Path forged = Files.writeString(dir.resolve("forged.jsonl"), TestLog.text(List.of(TestLog.keyLine(LogVerifierTest.KEY),
                LogVerifierTest.recordLine(TestLog.record("b", 1)))));
        for (String flag : List.of("--partial", "--allow-unsigned-tail")) {
            Result r = main("verify", forged.toString(), "--trust", key.toString(), flag);
            assertEquals(1, r.code, r.out);
            assertTrue(r.out.contains("Log b: NOT VERIFIED\n") && r.out.contains("NOT VERIFIED: 1 records in 1 log(s)"), r.out);
        }
        // A genuine export, signed through its last record, with a made-up record appended.
        var log = new TestLog(LogVerifierTest.KEY, "replica-a").appendTo(100, 25);
        var lines = log.export();
        Path genuine = Files.writeString(dir.resolve("genuine.jsonl"), TestLog.text(lines));
        Result signed = main("verify", genuine.toString(), "--trust", key.toString());
        assertEquals(0, signed.code, signed.out);
        assertTrue(signed.out.contains("VERIFIED: 100 records in 1 log(s)"), signed.out);
        lines.add(LogVerifierTest.recordLine(TestLog.record("replica-a", 101)));
        Path appended = Files.writeString(dir.resolve("appended.jsonl"), TestLog.text(lines));
        Result tail = main("verify", appended.toString(), "--trust", key.toString());
        assertEquals(1, tail.code, tail.out);
        assertTrue(tail.out.contains("NOT VERIFIED: 101 records in 1 log(s)"), tail.out);
        Result accepted = main("verify", appended.toString(), "--trust", key.toString(), "--allow-unsigned-tail");
        assertEquals(0, accepted.code, accepted.out);
        assertTrue(accepted.out.contains("VERIFIED: 100 records covered by signed checkpoints; 1 later record(s) of log replica-a"
                + " (seq 101 to 101) are covered by no signature (--allow-unsigned-tail); 1 log(s), read in"), accepted.out);
    }

    @Test
    void anExportWithNoLogIsNotVerified() throws Exception {
        for (String text : List.of("", TestLog.keyLine(LogVerifierTest.KEY) + "\n")) {
            Path empty = Files.writeString(dir.resolve("empty.jsonl"), text);
            Result r = main("verify", empty.toString(), "--trust", key.toString(), "--allow-unsigned-tail", "--partial");
            assertEquals(1, r.code, r.out);
            assertTrue(r.out.contains("PROBLEM: the export holds no log: no record, checkpoint or archive marker, so nothing was"
                    + " verified\n") && r.out.contains("NOT VERIFIED: 0 records in 0 log(s)"), r.out);
        }
    }

    @Test
    void aCheckpointTheAuditorKeptFindsRecordsRemovedFromTheEndAndADroppedLog() throws Exception {
        // Two logs; the auditor kept a checkpoint of each, at 100 and 40 records.
        var a = new TestLog(LogVerifierTest.KEY, "replica-a").appendTo(100, 25);
        var b = new TestLog(LogVerifierTest.KEY, "replica-b").appendTo(40, 20);
        Path keptA = Files.writeString(dir.resolve("a.note"), a.checkpoints.get(100L).note());
        Path keptB = Files.writeString(dir.resolve("b.note"), b.checkpoints.get(40L).note());
        var both = new java.util.ArrayList<>(a.export());
        both.addAll(b.export().subList(1, b.export().size()));
        Path whole = Files.writeString(dir.resolve("whole.jsonl"), TestLog.text(both));
        Result ok = main("verify", whole.toString(), "--trust", key.toString(), "--expect-checkpoint", keptA.toString(),
                "--expect-checkpoint", keptB.toString());
        assertEquals(0, ok.code, ok.out + ok.err);
        assertFalse(ok.out.contains("give it with --expect-checkpoint"), "given, it is not asked for: " + ok.out);
        // Records 76 to 100 deleted with their nodes and checkpoint: a shorter, signed log, which verifies alone.
        Path cut = Files.writeString(dir.resolve("cut.jsonl"), TestLog.text(new TestLog(LogVerifierTest.KEY, "replica-a")
                .appendTo(75, 25).export()));
        assertEquals(0, main("verify", cut.toString(), "--trust", key.toString()).code);
        Result r = main("verify", cut.toString(), "--trust", key.toString(), "--expect-checkpoint", keptA.toString());
        assertEquals(1, r.code, r.out);
        assertTrue(r.out.contains("  PROBLEM: records are missing at the end of log replica-a: the export ends at seq 75, but a"
                + " signed checkpoint (--expect-checkpoint) covers 100 records\n"), r.out);
        // Log replica-b dropped from the export.
        r = main("verify", path("cut.jsonl"), "--trust", key.toString(), "--expect-checkpoint", keptB.toString());
        assertEquals(1, r.code, r.out);
        assertTrue(r.out.contains("Log replica-b: NOT VERIFIED\n  no records in the export\n") && r.out.contains("  PROBLEM: log"
                + " replica-b is missing: the export holds none of its records, but a signed checkpoint (--expect-checkpoint)"
                + " covers 40 records\n"), r.out);
        // A kept checkpoint between the export's: its root must be the records' there; a rewritten log's is not.
        Path at60 = Files.writeString(dir.resolve("60.note"), new TestLog(LogVerifierTest.KEY, "replica-a").appendTo(60, 1000)
                .checkpoint().note());
        assertEquals(0, main("verify", cut.toString(), "--trust", key.toString(), "--expect-checkpoint", at60.toString()).code);
        var other = new TestLog(LogVerifierTest.KEY, "replica-a").appendTo(59, 1000);
        other.append(TestLog.record("replica-a", 61));
        Path forked = Files.writeString(dir.resolve("f60.note"), other.checkpoint().note());
        r = main("verify", cut.toString(), "--trust", key.toString(), "--expect-checkpoint", forked.toString());
        assertEquals(1, r.code, r.out);
        assertTrue(r.out.contains("  PROBLEM: the checkpoint at 60 records (--expect-checkpoint) does not match the records of log"
                + " replica-a"), r.out);
        Path forked50 = Files.writeString(dir.resolve("f50.note"), LogVerifierTest.KEY.sign("replica-a", 50, other.tree.root(),
                TestLog.T0).note());
        r = main("verify", cut.toString(), "--trust", key.toString(), "--expect-checkpoint", forked50.toString());
        assertEquals(1, r.code, r.out);
        assertTrue(r.out.contains("  PROBLEM: the checkpoint you kept (--expect-checkpoint) and the signed checkpoint on line 3 of"
                + " log replica-a, both for 50 records, have different roots"), r.out);
        // A kept checkpoint no trusted key signed is a usage error.
        r = main("verify", cut.toString(), "--trust", LogVerifierTest.OTHER.vkey().toString(), "--expect-checkpoint", keptA.toString());
        assertEquals(2, r.code, r.err);
        assertTrue(r.err.contains("--expect-checkpoint: " + keptA + " is signed by a key that is not trusted"), r.err);
    }

    @Test
    void anArchiveMarkerIsReportedAsRecordsNotInTheExport() {
        Result r = main("verify", path("archived.jsonl"), "--trust", key.toString(), "--allow-unsigned-tail");
        assertEquals(0, r.code, r.out);
        assertTrue(r.out.contains("  records 1 to 37 are not in this export; a signed checkpoint covers them\n"), r.out);
    }

    @Test
    void aRecordAfterAnArchivedPrefixIsProvedFromTheStoredNodes() {
        String archived = path("archived.jsonl");
        assertEquals(0, main("verify", archived, "--trust", key.toString(), "--allow-unsigned-tail").code);
        for (String seq : List.of("38", "40", "64", "99")) {
            Result proved = main("prove", archived, "replica-a/" + seq, "--out", path(seq + ".tlog-proof"));
            assertEquals(0, proved.code, proved.out + proved.err);
            assertEquals(0, main("check", path(seq + ".tlog-proof"), "--trust", vkey).code);
        }
    }

    @Test
    void theLogOnlyGrewBetweenTwoCheckpointsOfTheExport() throws Exception {
        Result old = main("checkpoint", export.toString(), "replica-a", "50", "--out", path("50.checkpoint"));
        assertEquals(0, old.code, old.out + old.err);
        assertEquals(0, main("checkpoint", export.toString(), "replica-a", "--out", path("latest.checkpoint")).code);
        assertTrue(Files.readString(dir.resolve("latest.checkpoint")).startsWith("quaestor.audit/replica-a\n100\n"));
        Result proof = main("consistency-proof", export.toString(), "replica-a", "50", "100", "--out", path("50-100.proof"));
        assertEquals(0, proof.code, proof.out + proof.err);
        assertTrue(Files.readString(dir.resolve("50-100.proof")).startsWith("quaestor-consistency/v1\nquaestor.audit/replica-a\n50 100\n"));
        Result grew = main("consistency", path("50.checkpoint"), path("latest.checkpoint"), path("50-100.proof"), "--trust", key.toString());
        assertEquals(0, grew.code, grew.out + grew.err);
        assertTrue(grew.out.startsWith("VERIFIED: log quaestor.audit/replica-a only grew: its first 50 records"), grew.out);

        // The proof of another pair of sizes does not do.
        assertEquals(0, main("consistency-proof", export.toString(), "replica-a", "25", "100", "--out", path("25-100.proof")).code);
        Result wrong = main("consistency", path("50.checkpoint"), path("latest.checkpoint"), path("25-100.proof"), "--trust", vkey);
        assertEquals(1, wrong.code);
        assertEquals(2, main("consistency", path("latest.checkpoint"), path("50.checkpoint"), path("50-100.proof"), "--trust", vkey).code);

        // From the archived export too: the older size is inside the archived records.
        String archived = path("archived.jsonl");
        assertEquals(0, main("checkpoint", archived, "replica-a", "37", "--out", path("37.checkpoint")).code);
        assertEquals(0, main("consistency-proof", archived, "replica-a", "37", "100", "--out", path("37-100.proof")).code);
        assertEquals(0, main("consistency", path("37.checkpoint"), path("latest.checkpoint"), path("37-100.proof"), "--trust", vkey).code);
    }
}
