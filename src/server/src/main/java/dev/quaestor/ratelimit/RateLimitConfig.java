package dev.quaestor.ratelimit;

import dev.quaestor.settings.RangeChecked;
import dev.quaestor.settings.SettingRanges;
import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.Duration;

@ConfigMapping(prefix = "quaestor.ratelimit")
public interface RateLimitConfig extends RangeChecked {

    enum Backend { MEMORY, REDIS }

    /** memory: buckets per replica (single instance). redis: buckets shared by every replica. */
    @WithDefault("memory")
    Backend backend();

    Redis redis();

    interface Redis {
        /** Lettuce URI, e.g. redis://127.0.0.1:6379/0 or rediss://user:password@host:6380. */
        @WithDefault("redis://127.0.0.1:6379")
        String url();

        /** Bound on one bucket operation; past it the limit's {@code fail} mode decides. */
        @WithDefault("250ms")
        Duration timeout();

        /** Prefix of every key Quaestor writes. */
        @WithDefault("quaestor:rl:")
        String keyPrefix();
    }

    /** The Redis timeout more than 0 (whichever backend is chosen: a switch to Redis should not find it wrong). */
    @Override
    default void checkRanges(SettingRanges r) {
        r.positive("quaestor.ratelimit.redis.timeout", redis().timeout());
    }
}
