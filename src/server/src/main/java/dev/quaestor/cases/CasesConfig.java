package dev.quaestor.cases;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/** Who may see every case, beside each case's own members. */
@ConfigMapping(prefix = "quaestor.cases")
public interface CasesConfig {

    /** Role (from the token) that sees and changes every case, member or not. */
    @WithDefault("quaestor-case-admin")
    String adminRole();
}
