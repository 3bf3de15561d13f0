package dev.quaestor.admin;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

@ConfigMapping(prefix = "quaestor.admin")
public interface AdminConfig {

    /** Role (from the token, as mapped by quaestor.identity.roles-claims) allowed to use the admin API. */
    @WithDefault("quaestor-admin")
    String role();
}
