package dev.quaestor.pipeline;

import dev.quaestor.audit.record.AuditEvent;
import dev.quaestor.audit.record.AuditEvent.Kind;
import dev.quaestor.policy.Action;
import dev.quaestor.policy.Conditions;
import dev.quaestor.policy.Effect;
import dev.quaestor.policy.PolicySet;
import dev.quaestor.policy.ResourcePattern;
import dev.quaestor.policy.Rule;
import dev.quaestor.policy.SubjectSet;
import dev.quaestor.provider.Mount;
import dev.quaestor.provider.Page;
import dev.quaestor.provider.ResourceEntry;
import dev.quaestor.provider.ResourceProvider;
import dev.quaestor.provider.filesystem.FilesystemProviderFactory;
import dev.quaestor.provider.mounts.MountTable.Mounted;
import dev.quaestor.uri.CanonicalUri;
import dev.quaestor.uri.UriCanonicalizer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.EnumSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Reads of a real filesystem mount, whose provider keeps small files' bytes: the OUTCOME's digest is that of the bytes
 * served, whether they were held or read, and a file changed to the same size is served as changed.
 */
class HeldContentDigestTest {

    private static final String URI = "file:///docs/note.txt";
    private static final PolicySet POLICY = new PolicySet("rev-1", List.of(new Rule("docs", Effect.ALLOW,
            EnumSet.of(Action.READ), List.of(ResourcePattern.parse("file:///docs/**")),
            new SubjectSet(Set.of("reader"), Set.of(), Set.of(), Set.of(), Set.of()), Conditions.NONE, "test.yaml:1")),
            List.of(), List.of(), List.of("test.yaml"));

    @TempDir
    Path root;
    private final PipelineFakes fakes = new PipelineFakes();
    private ResourceProvider provider;
    private int bufferLimit = 1024;

    @AfterEach
    void close() {
        if (provider != null) {
            provider.close();
        }
    }

    @Test
    void theRecordedDigestIsThatOfTheBytesServedWhetherHeldOrReadAndAChangeIsServed() throws Exception {
        Path file = root.resolve("note.txt");
        Files.writeString(file, "first text");
        // Older than the racy window by the real clock: its bytes are held after the first read.
        FileTime old = FileTime.fromMillis(System.currentTimeMillis() - 3_600_000);
        Files.setLastModifiedTime(file, old);
        Thread.sleep(2_100); // the change time (which cannot be set) too
        var mount = new Mount("docs", "filesystem", UriCanonicalizer.canonicalize("file:///docs/"), "file:///docs/",
                Map.of("root", root.toString(), "watch", "false"));
        provider = new FilesystemProviderFactory().create(mount);
        var pipeline = pipeline(new Mounted(mount, provider, false));

        byte[] first = served(pipeline, "r1");
        byte[] again = served(pipeline, "r2");
        assertArrayEquals("first text".getBytes(StandardCharsets.UTF_8), again);
        // Changed to the same size, its modification time put back: served as changed.
        Files.writeString(file, "other text");
        Files.setLastModifiedTime(file, old);
        byte[] changed = served(pipeline, "r3");
        assertArrayEquals("other text".getBytes(StandardCharsets.UTF_8), changed);
        assertArrayEquals(first, again);
        org.junit.jupiter.api.Assertions.assertSame(first, again, "the second read served the bytes held");

        List<AuditEvent> outcomes = fakes.audit.of(Kind.OUTCOME);
        assertEquals(3, outcomes.size());
        assertEquals(List.of(sha256(first), sha256(again), sha256(changed)),
                outcomes.stream().map(AuditEvent::contentSha256).toList());
        assertEquals(sha256("other text".getBytes(StandardCharsets.UTF_8)), outcomes.get(2).contentSha256());
    }

    @Test
    void textThatIsNotUtf8PastItsFirstBytesIsServedAsItsBytes() throws Exception {
        // Over the provider's in-memory limit (1 MiB), so judged text by its first bytes; under this buffer limit, so
        // served whole. One byte far in is not UTF-8: decoded as text it would be served altered.
        byte[] bytes = new byte[2 * 1024 * 1024];
        java.util.Arrays.fill(bytes, (byte) 'a');
        bytes[1_500_000] = (byte) 0xff;
        Files.write(root.resolve("note.txt"), bytes);
        bufferLimit = 4 * 1024 * 1024;
        var mount = new Mount("docs", "filesystem", UriCanonicalizer.canonicalize("file:///docs/"), "file:///docs/",
                Map.of("root", root.toString(), "watch", "false"));
        provider = new FilesystemProviderFactory().create(mount);

        var result = (ReadResult.Complete) pipeline(new Mounted(mount, provider, false)).read(PipelineFakes.request("r1"), URI).result();
        org.junit.jupiter.api.Assertions.assertFalse(result.text(), "served as bytes, not as text with a replacement");
        assertArrayEquals(bytes, result.bytes());
        assertEquals(sha256(bytes), fakes.audit.of(Kind.OUTCOME).get(0).contentSha256());
    }

    private byte[] served(ResourcePipeline pipeline, String requestId) {
        var result = pipeline.read(PipelineFakes.request(requestId), URI).result();
        return ((ReadResult.Complete) result).bytes();
    }

    private ResourcePipeline pipeline(Mounted docs) {
        ContentSources sources = new ContentSources() {
            @Override
            public Optional<Mounted> resolve(CanonicalUri uri) {
                return uri.isWithin(docs.mount().prefix()) ? Optional.of(docs) : Optional.empty();
            }

            @Override
            public List<Mounted> all() {
                return List.of(docs);
            }

            @Override
            public long shortestTtlMs() {
                return 0;
            }

            @Override
            public OpenedContent read(String subject, Mounted mount, CanonicalUri uri, int bufferLimit) {
                return OpenedContent.open(mount.provider().read(uri), bufferLimit, Long.MAX_VALUE, new java.util.ArrayList<>());
            }

            @Override
            public Page<ResourceEntry> list(String subject, String cursor, int limit, int scanBudget, Predicate<ResourceEntry> visible,
                    List<String> skipped) {
                throw new UnsupportedOperationException();
            }

            @Override
            public List<String> complete(String subject, Mounted mount, String template, String argument, String prefix,
                    Map<String, String> resolved, int limit) {
                throw new UnsupportedOperationException();
            }
        };
        ListingConfig listing = new ListingConfig() {
            @Override
            public java.util.Optional<String> cursorSecret() {
                return java.util.Optional.empty();
            }

            @Override
            public int pageSize() {
                return 50;
            }

            @Override
            public int scanBudget() {
                return 5000;
            }
        };
        ReadConfig read = new ReadConfig() {
            @Override
            public int bufferLimit() {
                return bufferLimit;
            }

            @Override
            public Duration writeTimeout() {
                return Duration.ofSeconds(30);
            }
        };
        Subscriptions none = new Subscriptions() {
            @Override
            public boolean add(String sessionId, String uri, dev.quaestor.subscription.Subscriber who) {
                throw new UnsupportedOperationException();
            }

            @Override
            public boolean remove(String sessionId, String uri) {
                throw new UnsupportedOperationException();
            }
        };
        return new ResourcePipeline(fakes.trails(() -> POLICY), sources, none, listing, read, Runnable::run);
    }

    private static String sha256(byte[] bytes) throws Exception {
        return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
    }
}
