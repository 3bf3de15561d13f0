package dev.quaestor.cli;

import dev.quaestor.policy.whatif.ReportJson;
import dev.quaestor.policy.whatif.WhatIfReplayTest;
import dev.quaestor.policy.whatif.WhatIfReport;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The offline command: a facts export and two policy directories in, a table, JSON and Markdown out, and its exit status. */
class WhatIfCommandTest {

    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    private int run(String... args) {
        return WhatIfCommand.run(args, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
    }

    private static Path dir(Path parent, String name, String rules) throws Exception {
        Path d = Files.createDirectories(parent.resolve(name));
        Files.writeString(d.resolve("p.yaml"), WhatIfReplayTest.HEAD + rules);
        return d;
    }

    private static Path facts(Path parent, String... lines) throws Exception {
        var text = new StringBuilder("{\"format\":\"quaestor-facts/1\",\"from\":\"2026-11-01T00:00:00Z\",\"to\":\"2026-11-03T00:00:00Z\"}\n");
        for (String l : lines) {
            text.append(l).append('\n');
        }
        return Files.writeString(parent.resolve("facts.jsonl"), text);
    }

    private static String secretRead(String revision) {
        return "{\"subject\":\"alice\",\"roles\":[\"staff\"],\"action\":\"read\",\"uri\":\"file:///docs/secret/a.md\","
                + "\"ip\":\"10.1.2.3\",\"hour\":\"2026-11-02T09:00:00Z\",\"revision\":\"" + revision + "\",\"decision\":\"DENY\",\"count\":3}";
    }

    @Test
    void aGainUnderAGuardedPrefixExitsNonZeroEvenWhenTheProposalDropsTheGuard(@TempDir Path tmp) throws Exception {
        Path current = dir(tmp, "current", WhatIfReplayTest.STAFF_READ + WhatIfReplayTest.NO_SECRETS + WhatIfReplayTest.GUARDS);
        Path proposed = dir(tmp, "proposed", WhatIfReplayTest.STAFF_READ);
        String rev = dev.quaestor.policy.PolicyLoader.load(current).revision();
        Path facts = facts(tmp, secretRead(rev));
        Path md = tmp.resolve("what-if.md");
        Path json = tmp.resolve("what-if.json");

        int code = run("what-if", proposed.toString(), "--current", current.toString(), "--facts", facts.toString(),
                "--markdown", md.toString(), "--json", json.toString());

        assertEquals(WhatIfCommand.GUARD_CROSSED, code, err.toString(StandardCharsets.UTF_8));
        String table = out.toString(StandardCharsets.UTF_8);
        assertTrue(table.contains("GAINED (deny -> allow)"), table);
        assertTrue(table.contains("secrets-stay-shut (p.yaml:"), table);
        String markdown = Files.readString(md);
        assertTrue(markdown.contains("**Guard crossed:** secrets-stay-shut"), markdown);
        assertTrue(markdown.contains("| gained | staff | `file:///docs/secret/` | 3 |"), markdown);
        assertFalse(markdown.contains("alice"), "the Markdown names no subject: " + markdown);
        assertFalse(markdown.contains("a.md"), "nor a full URI: " + markdown);
        var report = ReportJson.read(Files.readString(json));
        assertEquals("alice", report.gained().get(0).subject());
        assertEquals("secrets-stay-shut", report.guardHits().get(0).guard());
    }

    @Test
    void noGainUnderAGuardExitsZero(@TempDir Path tmp) throws Exception {
        Path current = dir(tmp, "current", WhatIfReplayTest.STAFF_READ + WhatIfReplayTest.NO_SECRETS + WhatIfReplayTest.GUARDS);
        Path proposed = dir(tmp, "proposed", WhatIfReplayTest.STAFF_READ.replace("file:///docs/**", "file:///docs/pub/**")
                + WhatIfReplayTest.NO_SECRETS + WhatIfReplayTest.GUARDS);
        String rev = dev.quaestor.policy.PolicyLoader.load(current).revision();
        Path facts = facts(tmp, secretRead(rev));

        assertEquals(0, run("what-if", proposed.toString(), "--current", current.toString(), "--facts", facts.toString()),
                err.toString(StandardCharsets.UTF_8));
        assertTrue(out.toString(StandardCharsets.UTF_8).contains("guards: none crossed"));
    }

    @Test
    void aFactsLineWithAnUnknownKeyIsRefusedNamingItsLine(@TempDir Path tmp) throws Exception {
        Path current = dir(tmp, "current", WhatIfReplayTest.STAFF_READ);
        Path facts = facts(tmp, secretRead("x"), secretRead("x").replace("\"count\"", "\"requestId\":\"r1\",\"count\""));

        assertEquals(2, run("what-if", current.toString(), "--current", current.toString(), "--facts", facts.toString()));
        String e = err.toString(StandardCharsets.UTF_8);
        assertTrue(e.startsWith("what-if: line 3: unknown key 'requestId'; a fact's keys are subject, client, tenant, roles,"), e);
    }

    @Test
    void aRejectedProposalIsExitOneAndNamesFileAndLine(@TempDir Path tmp) throws Exception {
        Path current = dir(tmp, "current", WhatIfReplayTest.STAFF_READ);
        Path proposed = dir(tmp, "proposed", WhatIfReplayTest.STAFF_READ + "guards:\n  - id: g\n");
        Path facts = facts(tmp);

        assertEquals(1, run("what-if", proposed.toString(), "--current", current.toString(), "--facts", facts.toString()));
        assertTrue(err.toString(StandardCharsets.UTF_8).contains("p.yaml:10: guard is missing required key 'resources'"),
                err.toString(StandardCharsets.UTF_8));
    }

    @Test
    void badUsageIsExitTwo(@TempDir Path tmp) {
        assertEquals(2, run("what-if", tmp.toString()));
        assertEquals(2, run("what-if", tmp.toString(), "--current"));
    }

    @Test
    void theDocumentedWorkedExampleShowsClinicianGainsOnTrialSummaries(@TempDir Path tmp) throws Exception {
        Path proposed = Files.createDirectories(tmp.resolve("proposed"));
        try (var s = Files.list(dev.quaestor.support.Repo.POLICIES)) {
            for (Path p : s.toList()) {
                Files.copy(p, proposed.resolve(p.getFileName()));
            }
        }
        Path example = dev.quaestor.support.Repo.ROOT.resolve("deploy/examples/what-if");
        Files.copy(example.resolve("clinical-trials.yaml"), proposed.resolve("clinical-trials.yaml"),
                java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        Path json = tmp.resolve("what-if.json");

        assertEquals(0, run("what-if", proposed.toString(), "--current", dev.quaestor.support.Repo.POLICIES.toString(),
                "--facts", example.resolve("facts.jsonl").toString(), "--json", json.toString()), err.toString(StandardCharsets.UTF_8));

        var report = ReportJson.read(Files.readString(json));
        assertEquals(java.util.List.of("bob", "dave"), report.gained().stream().map(WhatIfReport.Row::subject).toList());
        assertEquals(java.util.List.of(14L, 3L), report.gained().stream().map(WhatIfReport.Row::requests).toList());
        assertEquals(java.util.List.of(), report.lost());
        assertEquals(java.util.List.of(), report.notJudged());
        assertEquals(0, report.check().mismatched());
        assertEquals(122, report.check().records(), "the export's decisions were recorded under the samples' revision");
    }

    /** The samples without the deny on raw genomics, and without the tests that say raw genomics stay shut. */
    private static Path samplesWithoutTheRawGenomicsDeny(Path tmp) throws Exception {
        Path proposed = Files.createDirectories(tmp.resolve("proposed"));
        try (var s = Files.list(dev.quaestor.support.Repo.POLICIES)) {
            for (Path p : s.toList()) {
                Files.copy(p, proposed.resolve(p.getFileName()));
            }
        }
        String clinical = Files.readString(proposed.resolve("clinical-trials.yaml"));
        Files.writeString(proposed.resolve("clinical-trials.yaml"), (clinical.substring(0, clinical.indexOf("  - id: no-raw-genomics"))
                + clinical.substring(clinical.indexOf("guards:")))
                .replaceAll("(?s)  - name: Raw genomics stay closed even to a PI.*?expect: deny\n", ""));
        String glass = Files.readString(proposed.resolve("break-glass.yaml"));
        Files.writeString(proposed.resolve("break-glass.yaml"),
                glass.replaceAll("(?s)  - name: Never raw genomics.*?expect: deny\n", ""));
        return proposed;
    }

    /**
     * The documented export is of November: a window of the last hour selects none of it. Replaying nothing crosses no
     * guard, so without the refusal the guard-crossing change passed the gate (exit 0, "guards: none crossed").
     */
    @Test
    void aWindowThatMissesTheExportIsRefusedRatherThanPassed(@TempDir Path tmp) throws Exception {
        Path proposed = samplesWithoutTheRawGenomicsDeny(tmp);
        String facts = dev.quaestor.support.Repo.ROOT.resolve("deploy/examples/what-if/facts.jsonl").toString();
        String current = dev.quaestor.support.Repo.POLICIES.toString();
        assertEquals(WhatIfCommand.GUARD_CROSSED, run("what-if", proposed.toString(), "--current", current, "--facts", facts),
                err.toString(StandardCharsets.UTF_8));
        out.reset();

        assertEquals(2, run("what-if", proposed.toString(), "--current", current, "--facts", facts, "--since", "1h"));

        String e = err.toString(StandardCharsets.UTF_8);
        assertTrue(e.startsWith("what-if: the window "), e);
        assertTrue(e.contains(" does not overlap the window of " + facts + ", 2026-11-01T00:00:00Z .. 2026-11-29T00:00:00Z"
                + " (its header)"), e);
        assertFalse(out.toString(StandardCharsets.UTF_8).contains("none crossed"), out.toString(StandardCharsets.UTF_8));
    }

    @Test
    void aWindowWithinTheExportThatSelectsNoRequestIsRefused(@TempDir Path tmp) throws Exception {
        Path current = dir(tmp, "current", WhatIfReplayTest.STAFF_READ + WhatIfReplayTest.NO_SECRETS + WhatIfReplayTest.GUARDS);
        Path proposed = dir(tmp, "proposed", WhatIfReplayTest.STAFF_READ);
        Path facts = facts(tmp, secretRead("x"));

        assertEquals(2, run("what-if", proposed.toString(), "--current", current.toString(), "--facts", facts.toString(),
                "--from", "2026-11-01T00:00:00Z", "--to", "2026-11-02T00:00:00Z"));
        assertEquals("what-if: the window 2026-11-01T00:00:00Z .. 2026-11-02T00:00:00Z selects no request of " + facts
                + " (3 requests over 2026-11-01T00:00:00Z .. 2026-11-03T00:00:00Z): nothing would be judged\n",
                err.toString(StandardCharsets.UTF_8));
    }

    @Test
    void anExportOfNoRequestIsRefused(@TempDir Path tmp) throws Exception {
        Path current = dir(tmp, "current", WhatIfReplayTest.STAFF_READ + WhatIfReplayTest.NO_SECRETS + WhatIfReplayTest.GUARDS);
        Path proposed = dir(tmp, "proposed", WhatIfReplayTest.STAFF_READ);
        Path facts = facts(tmp);

        assertEquals(2, run("what-if", proposed.toString(), "--current", current.toString(), "--facts", facts.toString()));
        assertTrue(err.toString(StandardCharsets.UTF_8).startsWith("what-if: " + facts + " holds no request"),
                err.toString(StandardCharsets.UTF_8));
    }

    @Test
    void aServerNobodyAnswersAtIsExitTwoNamingIt(@TempDir Path tmp) throws Exception {
        Path proposed = dir(tmp, "proposed", WhatIfReplayTest.STAFF_READ);
        Path token = Files.writeString(tmp.resolve("admin.tok"), "t");
        int port;
        try (var free = new java.net.ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            port = free.getLocalPort(); // closed again: nothing listens there
        }
        assertEquals(2, run("what-if", proposed.toString(), "--server", "http://127.0.0.1:" + port, "--token-file", token.toString(),
                "--since", "1d"));
        assertTrue(err.toString(StandardCharsets.UTF_8).startsWith("what-if: cannot ask http://127.0.0.1:" + port
                + "/admin/policy/what-if: ConnectException"), err.toString(StandardCharsets.UTF_8));
    }

    @Test
    void anUnknownOptionIsBadUsageNamingIt(@TempDir Path tmp) throws Exception {
        Path current = dir(tmp, "current", WhatIfReplayTest.STAFF_READ);
        Path facts = facts(tmp, secretRead("x"));

        assertEquals(2, run("what-if", current.toString(), "--current", current.toString(), "--fact", facts.toString()));
        assertEquals("what-if: unknown option --fact\n" + WhatIfCommand.USAGE + "\n", err.toString(StandardCharsets.UTF_8));
        err.reset();
        assertEquals(2, run("what-if", current.toString(), "--current", current.toString(), "--facts", facts.toString(),
                "--snice", "1h"));
        assertTrue(err.toString(StandardCharsets.UTF_8).startsWith("what-if: unknown option --snice\n"), err.toString());
    }

    /** An action or decision no record holds would be counted as "refused before judgment" and change the figures. */
    @Test
    void anActionOrDecisionNoRecordHoldsIsRefusedNamingLineFieldAndValues(@TempDir Path tmp) throws Exception {
        Path current = dir(tmp, "current", WhatIfReplayTest.STAFF_READ);
        Path facts = facts(tmp, secretRead("x"), secretRead("x").replace("\"read\"", "\"delete\""));

        assertEquals(2, run("what-if", current.toString(), "--current", current.toString(), "--facts", facts.toString()));
        assertEquals("what-if: line 3: action 'delete' is not one of list, read, subscribe\n", err.toString(StandardCharsets.UTF_8));
        err.reset();
        facts = facts(tmp, secretRead("x").replace("DENY", "MAYBE"));
        assertEquals(2, run("what-if", current.toString(), "--current", current.toString(), "--facts", facts.toString()));
        assertEquals("what-if: line 2: decision 'MAYBE' is not one of ALLOW, DENY, FILTER\n", err.toString(StandardCharsets.UTF_8));
    }

    @Test
    void aLineThatIsNotJsonIsNamedAsSuch(@TempDir Path tmp) throws Exception {
        Path current = dir(tmp, "current", WhatIfReplayTest.STAFF_READ);
        Path facts = facts(tmp, secretRead("x"), "subject=alice action=read");

        assertEquals(2, run("what-if", current.toString(), "--current", current.toString(), "--facts", facts.toString()));
        assertTrue(err.toString(StandardCharsets.UTF_8).startsWith("what-if: line 3: not a JSON object ("),
                err.toString(StandardCharsets.UTF_8));
    }

    @Test
    void aMissingFactsFileAndAnUnwritableReportAreSaidPlainly(@TempDir Path tmp) throws Exception {
        Path current = dir(tmp, "current", WhatIfReplayTest.STAFF_READ);
        String nope = tmp.resolve("nope.jsonl").toString();

        assertEquals(2, run("what-if", current.toString(), "--current", current.toString(), "--facts", nope));
        assertEquals("what-if: --facts " + nope + ": no such file\n", err.toString(StandardCharsets.UTF_8));

        err.reset();
        Path facts = facts(tmp, secretRead("x"));
        String json = tmp.resolve("no/such/dir/out.json").toString();
        assertEquals(2, run("what-if", current.toString(), "--current", current.toString(), "--facts", facts.toString(),
                "--json", json));
        assertTrue(err.toString(StandardCharsets.UTF_8).startsWith("what-if: --json " + json
                + " cannot be written: no such directory " + tmp.resolve("no/such/dir") + "\n"), err.toString(StandardCharsets.UTF_8));
        assertEquals("", out.toString(StandardCharsets.UTF_8), "refused before the run, not after its report");
    }

    /** {@code --from} alone is a window to the export's end (documented as such): no need to copy the header's end. */
    @Test
    void aWindowWithOnlyItsStartRunsToTheEndOfTheExport(@TempDir Path tmp) throws Exception {
        Path current = dir(tmp, "current", WhatIfReplayTest.STAFF_READ + WhatIfReplayTest.NO_SECRETS + WhatIfReplayTest.GUARDS);
        Path proposed = dir(tmp, "proposed", WhatIfReplayTest.STAFF_READ);
        Path facts = facts(tmp, secretRead("x"));

        assertEquals(2, run("what-if", proposed.toString(), "--current", current.toString(), "--facts", facts.toString(),
                "--from", "2026-11-02T10:00:00Z"));
        assertTrue(err.toString(StandardCharsets.UTF_8).startsWith(
                "what-if: the window 2026-11-02T10:00:00Z .. 2026-11-03T00:00:00Z selects no request of " + facts),
                err.toString(StandardCharsets.UTF_8));
        assertTrue(WhatIfCommand.USAGE.contains("[--since 30d | [--from T] [--to T]]"), WhatIfCommand.USAGE);
    }
}
