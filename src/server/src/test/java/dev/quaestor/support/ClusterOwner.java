package dev.quaestor.support;

import com.sun.security.auth.module.UnixSystem;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.UserPrincipal;
import java.nio.file.attribute.UserPrincipalNotFoundException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The operating-system user a private PostgreSQL cluster runs as: this process's own user, or, when that is root
 * (initdb and postgres refuse to run as root, and CI runs as root), the {@code postgres} user that the server
 * package creates, switched to with {@code runuser}.
 */
final class ClusterOwner {

    private static final String POSTGRES_USER = "postgres";

    private final boolean switchUser;

    private ClusterOwner(boolean switchUser) {
        this.switchUser = switchUser;
    }

    static ClusterOwner forThisProcess() {
        boolean root = new UnixSystem().getUid() == 0;
        if (root) {
            try {
                lookup(POSTGRES_USER);
            } catch (IOException e) {
                throw new IllegalStateException("Running as root, so the private PostgreSQL cluster must run as the OS user '"
                        + POSTGRES_USER + "', which does not exist (Debian/Ubuntu: apt-get install postgresql creates it)", e);
            }
        }
        return new ClusterOwner(root);
    }

    /** Hands {@code dir} over to the cluster's user (a no-op without a switch of user). */
    void own(Path dir) throws IOException {
        if (switchUser) {
            Files.setOwner(dir, lookup(POSTGRES_USER));
        }
    }

    /** Runs a PostgreSQL program as the cluster's user in {@code workDir}; returns its output, or fails with it. */
    String run(Path workDir, List<String> command, long timeoutSeconds) throws IOException, InterruptedException {
        var full = new ArrayList<String>();
        if (switchUser) {
            full.addAll(List.of("runuser", "-u", POSTGRES_USER, "--"));
        }
        full.addAll(command);
        // Output goes to a file, not a pipe: nothing can block on a full pipe, and no child left running holds it open.
        Path output = Files.createTempFile("quaestor-pg-command", ".log");
        try {
            Process p = new ProcessBuilder(full).directory(workDir.toFile()).redirectErrorStream(true)
                    .redirectOutput(output.toFile()).start();
            if (!p.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new IOException(String.join(" ", full) + " did not finish within " + timeoutSeconds + " s:\n"
                        + Files.readString(output, StandardCharsets.UTF_8));
            }
            String text = Files.readString(output, StandardCharsets.UTF_8);
            if (p.exitValue() != 0) {
                throw new IOException(String.join(" ", full) + " exited with " + p.exitValue() + ":\n" + text);
            }
            return text;
        } finally {
            Files.deleteIfExists(output);
        }
    }

    private static UserPrincipal lookup(String name) throws IOException {
        try {
            return Path.of("/").getFileSystem().getUserPrincipalLookupService().lookupPrincipalByName(name);
        } catch (UserPrincipalNotFoundException e) {
            throw new IOException("no OS user " + name, e);
        }
    }
}
