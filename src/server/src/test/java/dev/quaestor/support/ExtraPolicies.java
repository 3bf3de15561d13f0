package dev.quaestor.support;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.stream.Stream;

/** A policy directory for a test profile: the shipped policies plus one file of the test's own rules. */
public final class ExtraPolicies {

    private ExtraPolicies() {
    }

    /** Writes {@code target/<dir>/} and returns its path, for {@code quaestor.policies.path}. */
    public static String directory(String dir, String fileName, String yaml) {
        try {
            Path out = Files.createDirectories(Path.of("target", dir));
            try (Stream<Path> files = Files.list(Repo.POLICIES)) {
                for (Path f : files.filter(p -> p.toString().endsWith(".yaml")).toList()) {
                    Files.copy(f, out.resolve(f.getFileName()), StandardCopyOption.REPLACE_EXISTING);
                }
            }
            Files.writeString(out.resolve(fileName), yaml);
            return out.toString();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
