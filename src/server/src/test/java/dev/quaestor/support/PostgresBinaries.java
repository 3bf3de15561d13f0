package dev.quaestor.support;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * The installed PostgreSQL server programs (initdb, pg_ctl): the newest
 * {@code /usr/lib/postgresql/<version>/bin} (Debian and Ubuntu), else {@code pg_config --bindir}, else the PATH.
 */
public record PostgresBinaries(Path bin) {

    private static final Path DEBIAN_ROOT = Path.of("/usr/lib/postgresql");
    /** Where they are looked for, for the message when they are not found. */
    static final String SEARCHED = DEBIAN_ROOT + "/<version>/bin, `pg_config --bindir` and the PATH";

    public Path initdb() {
        return bin.resolve("initdb");
    }

    public Path pgCtl() {
        return bin.resolve("pg_ctl");
    }

    /** The installed programs, if any. */
    public static Optional<PostgresBinaries> find() {
        return newestDebianVersion().or(PostgresBinaries::fromPgConfig).or(PostgresBinaries::fromPath)
                .map(PostgresBinaries::new);
    }

    private static boolean hasServerPrograms(Path dir) {
        return Files.isExecutable(dir.resolve("initdb")) && Files.isExecutable(dir.resolve("pg_ctl"));
    }

    private static Optional<Path> newestDebianVersion() {
        if (!Files.isDirectory(DEBIAN_ROOT)) {
            return Optional.empty();
        }
        try (Stream<Path> versions = Files.list(DEBIAN_ROOT)) {
            return versions.filter(v -> v.getFileName().toString().matches("\\d+(\\.\\d+)?"))
                    .map(v -> v.resolve("bin")).filter(PostgresBinaries::hasServerPrograms)
                    .max(Comparator.comparingDouble(b -> Double.parseDouble(b.getParent().getFileName().toString())));
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    private static Optional<Path> fromPgConfig() {
        try {
            Process p = new ProcessBuilder("pg_config", "--bindir").redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
            return p.waitFor() == 0 ? Optional.of(Path.of(out)).filter(PostgresBinaries::hasServerPrograms) : Optional.empty();
        } catch (IOException notInstalled) {
            return Optional.empty();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Optional.empty();
        }
    }

    private static Optional<Path> fromPath() {
        String path = System.getenv().getOrDefault("PATH", "");
        return List.of(path.split(java.io.File.pathSeparator)).stream().filter(s -> !s.isEmpty()).map(Path::of)
                .filter(PostgresBinaries::hasServerPrograms).findFirst();
    }
}
