package dev.quaestor.pipeline;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

@ConfigMapping(prefix = "quaestor.list")
public interface ListingConfig {

    /** Resources per resources/list page. */
    @WithDefault("50")
    int pageSize();

    /** Entries examined per page before a short page with a cursor is returned. */
    @WithDefault("5000")
    int scanBudget();
}
