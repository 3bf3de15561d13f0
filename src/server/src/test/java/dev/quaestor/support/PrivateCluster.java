package dev.quaestor.support;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * A throw-away PostgreSQL cluster made with the installed server programs in a temporary directory: loopback only,
 * on a free port, trust authentication, superuser {@code postgres}. {@link #stop()} shuts it down and deletes the
 * directory.
 */
final class PrivateCluster {

    static final String HOST = "127.0.0.1";
    private static final int START_ATTEMPTS = 3;

    private final PostgresBinaries binaries;
    private final ClusterOwner owner;
    private final Path dir;
    private final Path data;
    private final Path log;
    private int port;

    private PrivateCluster(PostgresBinaries binaries, ClusterOwner owner, Path dir) {
        this.binaries = binaries;
        this.owner = owner;
        this.dir = dir;
        this.data = dir.resolve("data");
        this.log = dir.resolve("postgres.log");
    }

    /** Creates and starts a cluster; fails with initdb's or the server's own output. */
    static PrivateCluster start(PostgresBinaries binaries) throws IOException, InterruptedException {
        ClusterOwner owner = ClusterOwner.forThisProcess();
        Path dir = Files.createTempDirectory("quaestor-pg-");
        var cluster = new PrivateCluster(binaries, owner, dir);
        try {
            owner.own(dir);
            cluster.initdb();
            cluster.startOnFreePort();
            return cluster;
        } catch (IOException | InterruptedException | RuntimeException e) {
            cluster.stop();
            throw e;
        }
    }

    String host() {
        return HOST;
    }

    int port() {
        return port;
    }

    Path directory() {
        return dir;
    }

    private void initdb() throws IOException, InterruptedException {
        // --no-sync: the cluster lives as long as one test JVM, so initdb need not wait for the disk.
        owner.run(dir, List.of(binaries.initdb().toString(), "-D", data.toString(), "-U", "postgres", "--auth=trust",
                "--encoding=UTF8", "--no-locale", "--no-sync"), 120);
        // The socket goes into the cluster's own directory: /var/run/postgresql may be missing or not writable.
        append("listen_addresses = '" + HOST + "'\nunix_socket_directories = '" + dir + "'\n");
    }

    /** Another process may take the port between choosing and binding it, so a failed start tries another. */
    private void startOnFreePort() throws IOException, InterruptedException {
        IOException last = null;
        for (int attempt = 1; attempt <= START_ATTEMPTS; attempt++) {
            port = freeLoopbackPort();
            append("port = " + port + "\n");
            try {
                owner.run(dir, List.of(binaries.pgCtl().toString(), "-D", data.toString(), "-l", log.toString(),
                        "-w", "-t", "120", "start"), 180);
                return;
            } catch (IOException e) {
                last = new IOException(e.getMessage() + "\nserver log " + log + ":\n" + serverLog(), e);
            }
        }
        throw last;
    }

    /** Shuts the server down (if it runs) and deletes the directory; safe to call more than once. */
    synchronized void stop() {
        if (!Files.exists(dir)) {
            return;
        }
        if (Files.exists(data.resolve("postmaster.pid"))) {
            try {
                owner.run(dir, List.of(binaries.pgCtl().toString(), "-D", data.toString(), "-m", "fast", "-w", "-t", "60",
                        "stop"), 90);
            } catch (IOException | InterruptedException e) {
                System.err.println("WARN: could not stop the private PostgreSQL cluster in " + dir + ": " + e.getMessage());
            }
        }
        try (Stream<Path> all = Files.walk(dir)) {
            for (Path p : all.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        } catch (IOException e) {
            System.err.println("WARN: could not delete " + dir + ": " + e.getMessage());
        }
    }

    private void append(String settings) throws IOException {
        Files.writeString(data.resolve("postgresql.conf"), settings, StandardCharsets.UTF_8, StandardOpenOption.APPEND);
    }

    private String serverLog() {
        try {
            return Files.exists(log) ? Files.readString(log, StandardCharsets.UTF_8) : "(none)";
        } catch (IOException e) {
            return "(unreadable: " + e.getMessage() + ")";
        }
    }

    private static int freeLoopbackPort() throws IOException {
        try (var s = new ServerSocket(0, 1, InetAddress.getByName(HOST))) {
            return s.getLocalPort();
        }
    }
}
