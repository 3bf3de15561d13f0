package dev.quaestor.pipeline;

import dev.quaestor.settings.RangeChecked;
import dev.quaestor.settings.SettingRanges;
import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.Duration;

@ConfigMapping(prefix = "quaestor.read")
public interface ReadConfig extends RangeChecked {

    /**
     * Content up to this many bytes is read whole, audited, then sent (the outcome record is committed
     * before any byte goes out); larger content is streamed (see {@link StreamedRead}).
     */
    @WithDefault("1048576")
    int bufferLimit();

    /** A streamed response that makes no progress for this long (a client that stopped reading) is cut off. */
    @WithDefault("30s")
    Duration writeTimeout();

    /** Allowed ranges: {@code buffer-limit} at least 1, {@code write-timeout} more than 0. */
    @Override
    default void checkRanges(SettingRanges r) {
        r.atLeast("quaestor.read.buffer-limit", bufferLimit(), 1)
                .positive("quaestor.read.write-timeout", writeTimeout());
    }
}
