package dev.quaestor;

import dev.quaestor.support.Repo;
import dev.quaestor.identity.Identity;
import dev.quaestor.policy.Action;
import dev.quaestor.policy.Facts;
import dev.quaestor.policy.PolicyLoader;
import dev.quaestor.policy.PolicySet;
import dev.quaestor.provider.Mount;
import dev.quaestor.provider.ResourceContent;
import dev.quaestor.provider.ResourceNotFoundException;
import dev.quaestor.provider.ResourceProvider;
import dev.quaestor.provider.filesystem.FilesystemProviderFactory;
import dev.quaestor.uri.CanonicalUri;
import dev.quaestor.uri.InvalidUriException;
import dev.quaestor.uri.UriCanonicalizer;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Hostile URIs through the whole chain as the server runs it (canonicaliser, the shipped policies,
 * the filesystem provider over a copy of the sample content plus planted symlinks): none may
 * reach bytes that alice is not allowed to read, and whatever is served must be exactly the file
 * at the canonical URI that was judged.
 */
class HostileUriCorpusTest {

    @TempDir
    Path tmp;

    private static final Identity ALICE = new Identity("alice", "c", "acme", Set.of("principal-investigator"), Set.of(),
            Set.of("resources:read"));

    private static final String[] TRAVERSALS = {
            "../", "%2e%2e/", "%2E%2E/", ".%2e/", "%2e./", "..%2f", "..%2F", "%2e%2e%2f", "..%5c", "..\\", "%252e%252e/",
            "%c0%ae%c0%ae/", "%e0%80%ae%e0%80%ae/", "..%c0%af", "..%ef%bc%8f", "%ef%bc%8e%ef%bc%8e/", "..;/", ".../",
            "....//", "..%00/", "%00../", "..%20/", "./../", "%2e%2e%5c", ".%2e%2f", "%u002e%u002e/"};

    private static final String[] TARGETS = {
            "home/bob/notes.md", "trials/onco-734/raw/sample-001.bin", "tenants/globex/report.md", "outside/secret.txt",
            "etc/passwd", "home/alice/bob-link", "home/alice/escape/secret.txt", "home/alice/raw-link/sample-001.bin",
            // allowed to alice: these must be served, and only from their own path
            "handbook/welcome.md", "trials/onco-734/summary.md"};

    private static final String[] FROM = {"", "home/alice/", "trials/onco-734/", "handbook/", "tenants/acme/"};

    static List<String> corpus() {
        var out = new LinkedHashSet<String>();
        for (String from : FROM) {
            int depth = from.isEmpty() ? 0 : from.split("/").length;
            for (String t : TRAVERSALS) {
                for (String target : TARGETS) {
                    out.add("file:///docs/" + from + t.repeat(depth) + target);
                    out.add("file:///docs/" + from + t.repeat(depth + 1) + target);
                }
            }
        }
        for (String target : TARGETS) {
            out.add("FILE:///docs/" + target);
            out.add("file:///DOCS/" + target);
            out.add("file:////docs/" + target);
            out.add("file:///docs//" + target);
            out.add("file:/docs/" + target);
            out.add("file://localhost/docs/" + target);
            out.add("file:///docs/" + target + ".");
            out.add("file:///docs/" + target + "%20");
            out.add("file:///docs/" + target + "%00.md");
            out.add("file:///docs/" + target + "?download=1");
            out.add("file:///docs/" + target + "#x");
            out.add("file:///docs/" + target.replace("/", "%2f"));
            out.add("file:///docs/" + target.replace("o", "%6f"));
            out.add("file:///docs/" + target.replace("o", "%u006f"));
            out.add("file:///docs/" + target.replace("/", "\u2215"));
            out.add("file:///docs/" + target.replace("/", "%e2%88%95"));
            out.add("file:///docs/home/alice/notes.md%00/../../" + target);
            out.add("file:///docs/home/alice/%2e%2e%2f%2e%2e%2f" + target);
        }
        return new ArrayList<>(out);
    }

    @Test
    void noHostileUriReachesForbiddenBytes() throws IOException {
        Path docs = copySampleContent();
        Files.createDirectories(tmp.resolve("outside"));
        Files.writeString(tmp.resolve("outside/secret.txt"), "OUTSIDE-SECRET");
        Files.createSymbolicLink(docs.resolve("home/alice/bob-link"), docs.resolve("home/bob/notes.md"));
        Files.createSymbolicLink(docs.resolve("home/alice/escape"), tmp.resolve("outside"));
        Files.createSymbolicLink(docs.resolve("home/alice/raw-link"), docs.resolve("trials/onco-734/raw"));

        PolicySet policy = PolicyLoader.load(Repo.POLICIES);
        ResourceProvider fs = new FilesystemProviderFactory().create(new Mount("docs", "filesystem",
                UriCanonicalizer.canonicalize("file:///docs/"), "file:///docs/", Map.of("root", docs.toString())));
        List<byte[]> forbidden = new ArrayList<>();
        for (String f : new String[] {"home/bob/notes.md", "trials/onco-734/raw/sample-001.bin", "tenants/globex/report.md"}) {
            forbidden.add(Files.readAllBytes(docs.resolve(f)));
        }
        forbidden.add("OUTSIDE-SECRET".getBytes(StandardCharsets.UTF_8));

        List<String> corpus = corpus();
        assertTrue(corpus.size() >= 200, "corpus has " + corpus.size() + " URIs");
        int rejected = 0;
        int denied = 0;
        int absent = 0;
        int served = 0;
        for (String raw : corpus) {
            CanonicalUri uri;
            try {
                uri = UriCanonicalizer.canonicalize(raw);
            } catch (InvalidUriException e) {
                rejected++;
                continue;
            }
            if (!policy.decide(ALICE, Action.READ, uri, new Facts("10.0.0.1", Instant.now())).allowed()) {
                denied++;
                continue;
            }
            ResourceContent content;
            try {
                content = fs.read(uri);
            } catch (ResourceNotFoundException e) {
                absent++;
                continue;
            }
            served++;
            for (byte[] f : forbidden) {
                assertFalse(Arrays.equals(f, content.bytes()), raw + " reached forbidden content as " + uri);
            }
            // Served bytes are those of the file at the judged URI, found by path alone.
            Path expected = docs;
            for (String seg : uri.relativeTo(UriCanonicalizer.canonicalize("file:///docs/"))) {
                expected = expected.resolve(seg);
            }
            assertArrayEquals(Files.readAllBytes(expected), content.bytes(), raw);
        }
        System.out.printf("hostile URI corpus: %d URIs, %d rejected by the canonicaliser, %d denied by policy, %d absent, %d served (allowed files)%n",
                corpus.size(), rejected, denied, absent, served);
        assertTrue(rejected > 0 && denied > 0 && served > 0, "the corpus exercises canonicaliser, policy and provider");
    }

    private Path copySampleContent() throws IOException {
        Path src = Repo.CONTENT.resolve("docs");
        Path dst = tmp.resolve("docs");
        try (Stream<Path> walk = Files.walk(src)) {
            for (Path p : walk.toList()) {
                Path target = dst.resolve(src.relativize(p).toString());
                if (Files.isDirectory(p)) {
                    Files.createDirectories(target);
                } else {
                    Files.copy(p, target);
                }
            }
        }
        return dst;
    }
}
