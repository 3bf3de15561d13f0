package dev.quaestor.provider;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import io.smallrye.config.WithParentName;
import java.util.Map;
import java.util.Optional;

@ConfigMapping(prefix = "quaestor.mounts")
public interface MountsConfig {

    @WithParentName
    Map<String, MountConfig> mounts();

    interface MountConfig {
        /** Provider type, e.g. filesystem, static. */
        String provider();

        /** The URI prefix clients see, e.g. file:///docs/. */
        String uri();

        /** filesystem: directory that holds the bytes. */
        Optional<String> root();

        /** static: the YAML catalogue. */
        Optional<String> file();

        /** git: the repository. */
        Optional<String> repository();

        /** Largest resource served, in bytes. */
        @WithDefault("10485760")
        long maxBytes();

        /** Provider-specific settings. */
        Map<String, String> options();
    }
}
