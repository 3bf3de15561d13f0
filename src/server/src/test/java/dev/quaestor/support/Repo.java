package dev.quaestor.support;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The repository's shared directories, seen from the server module (where tests run): the sample
 * policies and content live at the top of the repository, the modules under {@code src/}.
 */
public final class Repo {

    public static final Path ROOT = findRoot();
    /** The server module: where the packaged application and test output live. */
    public static final Path SERVER = ROOT.resolve("src").resolve("server");
    public static final Path POLICIES = ROOT.resolve("policies");
    public static final Path CONTENT = ROOT.resolve("content");

    /** Tests run in src/server/; the benchmarks in src/bench/ run from the top. */
    private static Path findRoot() {
        Path here = Path.of("").toAbsolutePath().normalize();
        for (Path p = here; p != null; p = p.getParent()) {
            if (Files.isRegularFile(p.resolve("src/server/pom.xml")) && Files.isDirectory(p.resolve("policies"))) {
                return p;
            }
        }
        throw new IllegalStateException("not inside the Quaestor repository: " + here);
    }

    private Repo() {
    }
}
