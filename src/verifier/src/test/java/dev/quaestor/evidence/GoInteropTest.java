package dev.quaestor.evidence;

import dev.quaestor.evidence.check.LogVerifierTest;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Our checkpoints verify with Go's golang.org/x/mod/sumdb/note (src/test/go/noteverify.go), an
 * implementation of C2SP signed notes that is not ours, and a changed byte fails there too. Without Go
 * or that package the test is skipped, unless the system property {@code quaestor.require-go} is
 * {@code true} (Maven: {@code -Dquaestor.require-go=true}): then it fails.
 */
class GoInteropTest {

    static final boolean REQUIRED = Boolean.getBoolean("quaestor.require-go");
    static final Path PROGRAM = Path.of("target", "noteverify");

    record Run(int code, String out) {
    }

    /** Builds the Go program, or skips (or fails, if Go is required) when Go or the package is missing. */
    static void build() throws Exception {
        Run version = run(List.of("go", "version"));
        if (version == null || version.code != 0) {
            unavailable("the go command is not installed");
        }
        String gopath = System.getenv().getOrDefault("GOPATH", "/usr/share/gocode");
        Run built = run(List.of("env", "GO111MODULE=off", "GOPATH=" + gopath, "GOCACHE=" + Path.of("target", "go-cache").toAbsolutePath(),
                "go", "build", "-o", PROGRAM.toString(), "src/test/go/noteverify.go"));
        if (built.code != 0) {
            if (built.out.contains("cannot find package")) {
                unavailable("the Go package golang.org/x/mod/sumdb/note is not installed (Debian: golang-golang-x-mod-dev)");
            }
            fail("go build failed: " + built.out);
        }
    }

    static void unavailable(String why) {
        if (REQUIRED) {
            fail(why + ", and quaestor.require-go=true");
        }
        Assumptions.abort(why + "; skipped (set quaestor.require-go=true to require it)");
    }

    static Run run(List<String> command) throws InterruptedException {
        try {
            Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            return new Run(p.waitFor(), out);
        } catch (IOException e) {
            return null;
        }
    }

    @Test
    void ourCheckpointVerifiesWithGoAndAChangedByteDoesNot(@TempDir Path dir) throws Exception {
        build();
        var log = new TestLog(LogVerifierTest.KEY, "replica-a").appendTo(1234, 1000);
        Checkpoint cp = log.checkpoint();
        String vkey = LogVerifierTest.KEY.vkey().toString();
        Path file = Files.writeString(dir.resolve("checkpoint"), cp.note());
        Run ok = run(List.of(PROGRAM.toString(), vkey, file.toString()));
        assertEquals(0, ok.code, ok.out);
        assertEquals(cp.note().substring(0, cp.note().indexOf("\n\n") + 1), ok.out);

        byte[] note = cp.note().getBytes(StandardCharsets.UTF_8);
        String text = cp.note();
        // A byte in the origin, the size, the root, the time line, and the signature.
        int[] positions = {3, text.indexOf("\n1234\n") + 2, text.indexOf('\n', text.indexOf("\n1234\n") + 1) + 5,
            text.indexOf("time ") + 9, note.length - 10};
        for (int at : positions) {
            byte[] changed = note.clone();
            changed[at] ^= 0x01;
            Path bad = Files.write(dir.resolve("changed-" + at), changed);
            Run refused = run(List.of(PROGRAM.toString(), vkey, bad.toString()));
            assertEquals(1, refused.code, "byte " + at + ": " + refused.out);
            assertTrue(refused.out.startsWith("not verified:"), refused.out);
        }
        // Another key does not verify it either.
        Run other = run(List.of(PROGRAM.toString(), LogVerifierTest.OTHER.vkey().toString(), file.toString()));
        assertEquals(1, other.code, other.out);

        // With its time-stamp line (an RFC 3161 token under a key Go does not know) the note still verifies, as
        // C2SP signed notes require of signatures by unknown keys.
        Path anchored = Files.writeString(dir.resolve("anchored"), Anchor.attach(cp.note(), Anchor.field(new byte[3000])));
        Run withToken = run(List.of(PROGRAM.toString(), vkey, anchored.toString()));
        assertEquals(0, withToken.code, withToken.out);
        assertEquals(cp.note().substring(0, cp.note().indexOf("\n\n") + 1), withToken.out);
    }
}
