package dev.quaestor.policy;

import dev.quaestor.support.Repo;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class PolicyCliTest {

    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    private int run(String... args) {
        return PolicyCli.run(args, new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
    }

    @Test
    void testRunsTheShippedSamples() {
        assertEquals(0, run("test", Repo.POLICIES.toString()));
        String o = out.toString(StandardCharsets.UTF_8);
        assertTrue(o.contains("ok  break-glass.yaml:"), o);
        assertTrue(o.matches("(?s).*\\n\\d+ passed, 0 failed\\n"), o);
    }

    /** A misspelt role decides nothing; the default deny says which of the caller's roles and groups no rule names. */
    @Test
    void explainNamesTheCallersRolesAndGroupsThatNoRuleNames() {
        assertEquals(1, run("explain", Repo.POLICIES.toString(), "--subject", "alice", "--roles", "principle-investigator,clinician",
                "--groups", "oncology-typo", "--scopes", "resources:read", "--action", "read", "--uri", "file:///docs/trials/onco-734/summary.md"));
        String o = out.toString(StandardCharsets.UTF_8);
        assertTrue(o.contains("deciding rules:    (none: default deny)"), o);
        assertTrue(o.contains("\n  named by no rule:  role principle-investigator, group oncology-typo (misspelt?)\n"), o);
        out.reset();
        assertEquals(0, run("explain", Repo.POLICIES.toString(), "--subject", "alice", "--roles", "principal-investigator",
                "--scopes", "resources:read", "--action", "read", "--uri", "file:///docs/trials/onco-734/summary.md"));
        assertTrue(!out.toString(StandardCharsets.UTF_8).contains("named by no rule"), out.toString(StandardCharsets.UTF_8));
    }

    @Test
    void testRejectsABrokenDirectoryNamingFileAndLine(@TempDir Path dir) throws Exception {
        Files.copy(Repo.POLICIES.resolve("shared.yaml"), dir.resolve("shared.yaml"));
        Files.writeString(dir.resolve("broken.yaml"), "apiVersion: quaestor/v1\nkind: Policy\nrules:\n  - id: x\n    efect: allow\n");
        assertEquals(1, run("test", dir.toString()));
        assertTrue(err.toString(StandardCharsets.UTF_8).contains("broken.yaml:5: unknown key 'efect' in rule"), err.toString());
    }

    @Test
    void testRejectsADirectoryWithADanglingLinkNamingIt(@TempDir Path dir) throws Exception {
        Files.copy(Repo.POLICIES.resolve("shared.yaml"), dir.resolve("shared.yaml"));
        Files.createSymbolicLink(dir.resolve("deny.yaml"), dir.resolve("moved/deny.yaml"));
        assertEquals(1, run("test", dir.toString()));
        assertTrue(err.toString(StandardCharsets.UTF_8).contains("deny.yaml: cannot be read as a policy file"), err.toString());
    }

    @Test
    void explainShowsTheDecidingAndOverriddenRules() {
        assertEquals(1, run("explain", Repo.POLICIES.toString(), "--subject", "alice", "--roles", "principal-investigator",
                "--scopes", "resources:read", "--action", "read", "--uri", "file:///docs/trials/onco-734/raw/../raw/sample-001.bin"));
        String o = out.toString(StandardCharsets.UTF_8);
        assertTrue(o.startsWith("deny file:///docs/trials/onco-734/raw/sample-001.bin"), o);
        assertTrue(o.contains("deciding rules:    no-raw-genomics"), o);
        assertTrue(o.contains("overridden allows: pi-read-trials"), o);
        out.reset();
        assertEquals(0, run("explain", Repo.POLICIES.toString(), "--subject", "alice", "--action", "read", "--uri", "file:///docs/home/alice/notes.md"));
        assertTrue(out.toString(StandardCharsets.UTF_8).contains("deciding rules:    own-home"));
        assertTrue(out.toString(StandardCharsets.UTF_8).contains("judged at:         "), out.toString(StandardCharsets.UTF_8));
        assertTrue(out.toString(StandardCharsets.UTF_8).contains(" (now: no --time given)"), out.toString(StandardCharsets.UTF_8));
        out.reset();
        assertEquals(0, run("explain", Repo.POLICIES.toString(), "--subject", "olga", "--roles", "safety-officer-oncall",
                "--source-ip", "10.20.30.40", "--time", "2026-03-04T23:15:00+01:00", "--action", "read",
                "--uri", "file:///docs/trials/onco-734/summary.md"));
        assertTrue(out.toString(StandardCharsets.UTF_8).contains("judged at:         2026-03-04T22:15:00Z\n"), out.toString(StandardCharsets.UTF_8));
    }

    @Test
    void badUsageIsExitTwo() {
        assertEquals(2, run());
        assertEquals(2, run("explain", Repo.POLICIES.toString(), "--subject"));
        assertEquals(2, run("explain", Repo.POLICIES.toString(), "--subject", "a", "--action", "write", "--uri", "file:///x"));
    }

    /** A misspelt option that is ignored answers another question: --role is not --roles, and alice is then denied. */
    @Test
    void anUnknownOptionIsBadUsageNamingIt() {
        for (String wrong : new String[] {"--role", "--scope", "--rolez"}) {
            out.reset();
            err.reset();
            assertEquals(2, run("explain", Repo.POLICIES.toString(), "--subject", "alice", wrong, "principal-investigator",
                    "--action", "read", "--uri", "file:///docs/trials/onco-734/summary.md"), wrong);
            String e = err.toString(StandardCharsets.UTF_8);
            assertTrue(e.startsWith("explain: unknown option " + wrong + "\nusage: policy test DIR"), e);
            assertEquals("", out.toString(StandardCharsets.UTF_8), "no answer to a question not asked");
        }
        err.reset();
        assertEquals(2, run("test", Repo.POLICIES.toString(), "--verbose", "yes"));
        assertTrue(err.toString(StandardCharsets.UTF_8).startsWith("test: unknown option --verbose\n"), err.toString());
        err.reset();
        assertEquals(2, run("explain", Repo.POLICIES.toString(), "--subject", "a", "--subject", "b", "--action", "read",
                "--uri", "file:///x"));
        assertTrue(err.toString(StandardCharsets.UTF_8).startsWith("explain: --subject is given twice\n"), err.toString());
    }

    @Test
    void aMistypedCommandIsNamedBeforeTheUsageWhichListsEveryCommand() {
        assertEquals(2, run("tset", Repo.POLICIES.toString()));
        String e = err.toString(StandardCharsets.UTF_8);
        assertTrue(e.startsWith("unknown command 'tset'\nusage: policy test DIR | policy explain DIR "), e);
        assertTrue(e.contains(" | policy what-if PROPOSED-DIR "), e);
        assertTrue(e.contains(" | policy listed DIR "), e);
        assertEquals("", out.toString(StandardCharsets.UTF_8));
    }

    @Test
    void whatIfIsTheWhatIfCommandsOwnUsage() {
        assertEquals(2, run("what-if"));
        assertTrue(err.toString(StandardCharsets.UTF_8).startsWith("usage: policy what-if PROPOSED-DIR "), err.toString());
    }

    @Test
    void aMissingRequiredOptionIsNamed() {
        assertEquals(2, run("explain", Repo.POLICIES.toString(), "--subject", "alice", "--action", "read"));
        assertTrue(err.toString(StandardCharsets.UTF_8).startsWith("explain: --uri is required\nusage: "), err.toString());
        err.reset();
        assertEquals(2, run("explain", Repo.POLICIES.toString(), "--subject", "alice", "--uri", "file:///docs/x.md"));
        assertTrue(err.toString(StandardCharsets.UTF_8).startsWith("explain: --action is required\n"), err.toString());
        err.reset();
        assertEquals(2, run("explain", Repo.POLICIES.toString(), "--action", "read", "--uri", "file:///docs/x.md"));
        assertTrue(err.toString(StandardCharsets.UTF_8).startsWith("explain: --subject is required\n"), err.toString());
        assertEquals("", out.toString(StandardCharsets.UTF_8));
    }

    /** An address that is not one would be judged as unknown: a deny for another question than the one asked. */
    @Test
    void aSourceIpThatIsNotAnAddressIsBadUsage() {
        for (String bad : new String[] {"999.1.1.1", "not-an-ip", "localhost", "10.1.2"}) {
            out.reset();
            err.reset();
            assertEquals(2, run("explain", Repo.POLICIES.toString(), "--subject", "alice", "--action", "read",
                    "--uri", "file:///docs/trials/onco-734/summary.md", "--source-ip", bad), bad);
            assertTrue(err.toString(StandardCharsets.UTF_8).startsWith("explain: --source-ip must be an IPv4 or IPv6 address, not '"
                    + bad + "'\n"), err.toString());
            assertEquals("", out.toString(StandardCharsets.UTF_8));
        }
        for (String good : new String[] {"10.1.2.3", "::1", "[2001:db8::1]"}) {
            err.reset();
            run("explain", Repo.POLICIES.toString(), "--subject", "alice", "--action", "read",
                    "--uri", "file:///docs/trials/onco-734/summary.md", "--source-ip", good);
            assertEquals("", err.toString(StandardCharsets.UTF_8), good);
        }
    }
}
