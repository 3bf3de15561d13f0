package dev.quaestor.ratelimit;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.Duration;

@ConfigMapping(prefix = "quaestor.ratelimit")
public interface RateLimitConfig {

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
}
