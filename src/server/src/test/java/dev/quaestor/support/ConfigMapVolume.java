package dev.quaestor.support;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Comparator;
import java.util.Map;
import java.util.stream.Stream;

/**
 * A directory laid out and updated the way the kubelet mounts a ConfigMap volume (deploy/base/deployment.yaml,
 * volume {@code policies}): the files live in a timestamped directory {@code ..2026_…}, {@code ..data} links to it,
 * and each visible file is a symlink {@code name -> ..data/name}. An update writes a new timestamped directory,
 * points {@code ..data_tmp} at it, renames that over {@code ..data} (the one atomic step), fixes the visible
 * symlinks and removes the old directory.
 */
public final class ConfigMapVolume {

    private final Path dir;
    private int generation;

    public ConfigMapVolume(Path dir) throws IOException {
        this.dir = dir;
        if (Files.exists(dir)) {
            try (Stream<Path> walk = Files.walk(dir)) {
                for (Path p : walk.sorted(Comparator.reverseOrder()).toList()) {
                    Files.delete(p);
                }
            }
        }
        Files.createDirectories(dir);
    }

    public Path dir() {
        return dir;
    }

    /** Replaces the whole content, as a ConfigMap update does. */
    public synchronized void write(Map<String, String> files) throws IOException {
        Path old = swap(files);
        finish(files, old);
    }

    /**
     * The first half of an update, up to the moment a reader may look: {@code ..data} names the new directory, the
     * visible links are still the old ones (a file removed links to nothing, a file added has no link yet).
     */
    public synchronized void swapOnly(Map<String, String> files) throws IOException {
        swap(files);
    }

    private Path swap(Map<String, String> files) throws IOException {
        Path data = dir.resolve("..data");
        Path old = Files.isSymbolicLink(data) ? dir.resolve(Files.readSymbolicLink(data)) : null;
        String stamp = "..%d_%04d".formatted(System.currentTimeMillis(), ++generation);
        Path fresh = Files.createDirectory(dir.resolve(stamp));
        for (var f : files.entrySet()) {
            Files.writeString(fresh.resolve(f.getKey()), f.getValue());
        }
        Path tmp = dir.resolve("..data_tmp");
        Files.deleteIfExists(tmp);
        Files.createSymbolicLink(tmp, Path.of(stamp));
        Files.move(tmp, data, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        return old;
    }

    private void finish(Map<String, String> files, Path old) throws IOException {
        try (Stream<Path> visible = Files.list(dir)) {
            for (Path p : visible.filter(p -> !p.getFileName().toString().startsWith("..")).toList()) {
                if (!files.containsKey(p.getFileName().toString())) {
                    Files.delete(p);
                }
            }
        }
        for (String name : files.keySet()) {
            Path link = dir.resolve(name);
            if (!Files.isSymbolicLink(link)) {
                Files.createSymbolicLink(link, Path.of("..data", name));
            }
        }
        if (old != null) {
            try (Stream<Path> walk = Files.walk(old)) {
                for (Path p : walk.sorted(Comparator.reverseOrder()).toList()) {
                    Files.delete(p);
                }
            }
        }
    }
}
