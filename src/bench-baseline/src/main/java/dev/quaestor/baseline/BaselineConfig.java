package dev.quaestor.baseline;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.util.Optional;

/** The benchmark baseline endpoint: off unless a benchmark turns it on. */
@ConfigMapping(prefix = "quaestor.baseline")
public interface BaselineConfig {

    /** Serve {@code GET /baseline/{path}}. Never enable it where real content is mounted. */
    @WithDefault("false")
    boolean enabled();

    /** Directory whose files the endpoint serves. */
    Optional<String> root();
}
