package dev.quaestor.support;

import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Map;
import java.util.stream.Stream;

/**
 * The policy set the server runs under in tests: the shipped samples in {@code policies/} plus
 * the rules for test-only mounts in {@code src/test/resources/test-policies/}.
 */
public class TestPolicies implements QuarkusTestResourceLifecycleManager {

    public static final Path DIR = Path.of("target", "test-policies");

    @Override
    public Map<String, String> start() {
        try {
            if (Files.exists(DIR)) {
                try (Stream<Path> old = Files.list(DIR)) {
                    for (Path p : old.toList()) {
                        Files.delete(p);
                    }
                }
            }
            Files.createDirectories(DIR);
            for (Path src : new Path[] {Repo.POLICIES, Path.of("src", "test", "resources", "test-policies")}) {
                try (Stream<Path> files = Files.list(src)) {
                    for (Path f : files.filter(p -> p.toString().endsWith(".yaml")).toList()) {
                        Files.copy(f, DIR.resolve(f.getFileName()), StandardCopyOption.REPLACE_EXISTING);
                    }
                }
            }
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
        return Map.of("quaestor.policies.path", DIR.toString());
    }

    @Override
    public void stop() {
    }
}
