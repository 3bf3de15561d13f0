package dev.quaestor.pipeline;

import dev.quaestor.settings.RangeChecked;
import dev.quaestor.settings.SettingRanges;
import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

@ConfigMapping(prefix = "quaestor.list")
public interface ListingConfig extends RangeChecked {

    /** Resources per resources/list page. */
    @WithDefault("50")
    int pageSize();

    /**
     * Entries one resources/list call examines at most, across mounts, before it returns a short page with a cursor
     * (default: one page). What a call costs is this many entries, whatever the mounts hold.
     */
    @WithDefault("50")
    int scanBudget();

    /**
     * The secret the cursors given out are sealed with ({@link ListingCursors}); every replica needs the same. Unset:
     * random per process.
     */
    java.util.Optional<String> cursorSecret();

    /** Allowed ranges: {@code page-size} and {@code scan-budget} at least 1. */
    @Override
    default void checkRanges(SettingRanges r) {
        r.atLeast("quaestor.list.page-size", pageSize(), 1)
                .atLeast("quaestor.list.scan-budget", scanBudget(), 1);
    }
}
