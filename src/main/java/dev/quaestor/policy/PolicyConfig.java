package dev.quaestor.policy;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

@ConfigMapping(prefix = "quaestor.policies")
public interface PolicyConfig {

    /** Directory of policy files. */
    @WithDefault("policies")
    String path();
}
