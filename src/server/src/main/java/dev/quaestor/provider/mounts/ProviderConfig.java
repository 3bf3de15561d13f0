package dev.quaestor.provider.mounts;

import dev.quaestor.settings.RangeChecked;
import dev.quaestor.settings.SettingRanges;
import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/** What every mount's provider calls share unless the mount says otherwise. */
@ConfigMapping(prefix = "quaestor.provider")
public interface ProviderConfig extends RangeChecked {

    /** Provider calls past this many milliseconds fail with -32001; a mount's {@code timeout-ms} overrides it. */
    @WithDefault("10000")
    long timeoutMs();

    /** The time box at least 1 ms: at 0 every read would fail. */
    @Override
    default void checkRanges(SettingRanges r) {
        r.atLeast("quaestor.provider.timeout-ms", timeoutMs(), 1);
    }
}
