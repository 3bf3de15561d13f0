package dev.quaestor.policy;

import jakarta.enterprise.event.Event;
import jakarta.enterprise.event.NotificationOptions;
import jakarta.enterprise.util.TypeLiteral;
import java.lang.annotation.Annotation;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletionStage;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Reloads of a policy directory that cannot be read as it stands: each is a refusal, reported and fired (so put on
 * record), and the set that follows is activated once it is valid, even when its revision is the refused one's.
 */
class PolicyStoreReloadTest {

    private static final String RULE = """
            apiVersion: quaestor/v1
            kind: Policy
            rules:
              - id: %s
                effect: %s
                actions: [read]
                resources: ["file:///docs/**"]
                subjects: {subjects: [carol]}
            """;

    @TempDir
    Path dir;

    private final List<PolicyChange> fired = new ArrayList<>();

    @Test
    void aSetRefusedForAStrayFileIsActivatedOnceTheFileIsGone() throws Exception {
        Files.writeString(dir.resolve("a.yaml"), RULE.formatted("carol-reads-docs", "allow"));
        var store = store();
        String before = store.current().revision();

        // A revocation arrives with an editor's backup beside it: refused, the backup would not be read.
        Files.writeString(dir.resolve("b.yaml"), RULE.formatted("carol-revoked", "deny"));
        Files.writeString(dir.resolve("b.yaml~"), RULE.formatted("carol-revoked", "deny"));
        PolicyChange refused = store.reload();
        assertNotNull(refused);
        assertFalse(refused.activated());
        assertEquals(before, store.current().revision());

        Files.delete(dir.resolve("b.yaml~"));
        PolicyChange activated = store.reload();
        assertNotNull(activated, "the same files without the stray one are a set to judge, not the refusal repeated");
        assertTrue(activated.activated(), activated.errors().toString());
        assertNotEquals(before, store.current().revision());
        assertTrue(store.current().rules().stream().anyMatch(r -> r.id().equals("carol-revoked")));
        assertNull(store.refusal());
        assertEquals(List.of(false, true), fired.stream().map(PolicyChange::activated).toList());
        assertNull(store.reload(), "nothing changed since: no new change");
    }

    @Test
    void aStrayFileIsReportedBesideTheOtherFilesMistakesAsTheCommandLineReportsThem() throws Exception {
        Files.writeString(dir.resolve("a.yaml"), RULE.formatted("carol-reads-docs", "allow"));
        var store = store();

        Files.writeString(dir.resolve("notes.yaml.bak"), RULE.formatted("old", "allow"));
        Files.writeString(dir.resolve("z.yaml"), RULE.formatted("carol-revoked", "deny").replace("effect:", "efect:"));
        PolicyChange refused = store.reload();
        assertNotNull(refused);
        assertFalse(refused.activated());
        var offline = assertThrows(PolicyValidationException.class, () -> PolicyLoader.load(dir)).errors();
        assertEquals(offline, refused.errors(), "the server refuses naming every mistake `policy test` names");
        assertTrue(refused.errors().stream().anyMatch(e -> e.file().equals("notes.yaml.bak")), refused.errors().toString());
        assertTrue(refused.errors().stream().anyMatch(e -> e.file().equals("z.yaml") && e.message().contains("efect")),
                refused.errors().toString());
    }

    /** A policy file become a link to nothing (its target moved away) is a refusal on record, not a set without its rules. */
    @Test
    void aDanglingLinkIsRefusedAndTheLastGoodSetStaysActive() throws Exception {
        Files.writeString(dir.resolve("a.yaml"), RULE.formatted("carol-reads-docs", "allow"));
        Files.writeString(dir.resolve("b.yaml"), RULE.formatted("carol-revoked", "deny"));
        var store = store();
        String before = store.current().revision();

        Files.delete(dir.resolve("b.yaml"));
        Files.createSymbolicLink(dir.resolve("b.yaml"), Path.of("gone/b.yaml"));
        PolicyChange refused = store.reload();
        assertNotNull(refused, "refused, not the deny dropped in silence");
        assertFalse(refused.activated());
        assertTrue(refused.errors().stream().anyMatch(e -> e.file().equals("b.yaml") && e.message().contains("dangling link")),
                refused.errors().toString());
        assertEquals(refused, store.refusal(), "reported as degraded");
        assertEquals(List.of(refused), fired, "fired, so that it is put on record");
        assertEquals(before, store.current().revision(), "the last good set stays active");
        assertTrue(store.current().rules().stream().anyMatch(r -> r.id().equals("carol-revoked")));
    }

    @Test
    void anEmptiedDirectoryIsRefusedAndReported() throws Exception {
        Files.writeString(dir.resolve("a.yaml"), RULE.formatted("carol-reads-docs", "allow"));
        var store = store();
        String before = store.current().revision();

        Files.move(dir.resolve("a.yaml"), dir.resolve("a.yaml.moved"));
        PolicyChange refused = store.reload();
        assertNotNull(refused, "refused, not an exception only the log hears of");
        assertFalse(refused.activated());
        assertTrue(refused.errors().stream().anyMatch(e -> e.message().contains("no *.yaml policy files found")),
                refused.errors().toString());
        assertEquals(refused, store.refusal(), "reported as degraded");
        assertEquals(List.of(refused), fired, "fired, so that it is put on record");
        assertEquals(before, store.current().revision(), "the last good set stays active");
        assertNull(store.reload(), "the same refusal is not made twice");

        Files.move(dir.resolve("a.yaml.moved"), dir.resolve("a.yaml"));
        PolicyChange resumed = store.reload();
        assertNotNull(resumed, "the end of the refusal is a change of its own, fired so that it is put on record");
        assertTrue(resumed.endsRefusal() && resumed.activated(), resumed.toString());
        assertEquals(before, resumed.activeRevision(), "nothing but the refusal changed");
        assertEquals(refused.candidateRevision(), resumed.candidateRevision(), "it names the revision refused");
        assertEquals(List.of(refused, resumed), fired);
        assertNull(store.refusal(), "the files went back to the active set");
        assertNull(store.reload(), "and it ends once");
    }

    @Test
    void aFileReadHalfWrittenIsNotJudgedUntilItHoldsStill() throws Exception {
        Files.writeString(dir.resolve("a.yaml"), RULE.formatted("carol-reads-docs", "allow"));
        var store = store();
        String before = store.current().revision();

        // An editor writing b.yaml in place: its first rule is written, a valid set on its own; its deny is not yet.
        String whole = RULE.formatted("carol-reads-more", "allow") + """
                  - id: carol-not-hr
                    effect: deny
                    actions: [read]
                    resources: ["file:///docs/hr/**"]
                    subjects: {subjects: [carol]}
                """;
        Files.writeString(dir.resolve("b.yaml"), RULE.formatted("carol-reads-more", "allow"));
        store.betweenReads = () -> write(dir.resolve("b.yaml"), whole);
        assertNull(store.reload(), "two reads that differ: nothing judged yet");
        assertEquals(before, store.current().revision());
        assertEquals(List.of(), fired);

        store.betweenReads = () -> { };
        PolicyChange activated = store.reload();
        assertNotNull(activated);
        assertTrue(activated.activated(), activated.errors().toString());
        assertTrue(store.current().rules().stream().anyMatch(r -> r.id().equals("carol-not-hr")), "the whole file");
    }

    private static void write(Path file, String text) {
        try {
            Files.writeString(file, text);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private PolicyStore store() {
        return new PolicyStore(new PolicyConfig() {
            @Override
            public String path() {
                return dir.toString();
            }

            @Override
            public boolean watch() {
                return false;
            }

            @Override
            public Duration pollInterval() {
                return Duration.ofSeconds(10);
            }

            @Override
            public String annotationFile() {
                return ".revision-annotation";
            }
        }, new Recorded());
    }

    /** The changes fired, as the audit log's observer would receive them. */
    private final class Recorded implements Event<PolicyChange> {
        @Override
        public void fire(PolicyChange change) {
            fired.add(change);
        }

        @Override
        public <U extends PolicyChange> CompletionStage<U> fireAsync(U event) {
            throw new UnsupportedOperationException();
        }

        @Override
        public <U extends PolicyChange> CompletionStage<U> fireAsync(U event, NotificationOptions options) {
            throw new UnsupportedOperationException();
        }

        @Override
        public Event<PolicyChange> select(Annotation... qualifiers) {
            throw new UnsupportedOperationException();
        }

        @Override
        public <U extends PolicyChange> Event<U> select(Class<U> subtype, Annotation... qualifiers) {
            throw new UnsupportedOperationException();
        }

        @Override
        public <U extends PolicyChange> Event<U> select(TypeLiteral<U> subtype, Annotation... qualifiers) {
            throw new UnsupportedOperationException();
        }
    }
}
