package dev.quaestor.mcp.session;

import dev.quaestor.settings.RangeChecked;
import dev.quaestor.settings.SettingRanges;
import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.Duration;

/** The lifetime of 2025 MCP sessions ({@code quaestor.sessions.*}). */
@ConfigMapping(prefix = "quaestor.sessions")
public interface SessionConfig extends RangeChecked {

    /**
     * A session with no request (and no open event stream) for this long ends, with its subscriptions.
     * A session also ends when the latest token it was used with expires.
     */
    @WithDefault("30M")
    Duration idleTimeout();

    /** How often each replica deletes the rows of ended and expired sessions and of their subscriptions. */
    @WithDefault("1M")
    Duration sweepInterval();

    /** Allowed ranges: both durations more than 0. */
    @Override
    default void checkRanges(SettingRanges r) {
        r.positive("quaestor.sessions.idle-timeout", idleTimeout())
                .positive("quaestor.sessions.sweep-interval", sweepInterval());
    }
}
