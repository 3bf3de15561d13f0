package dev.quaestor.subscription;

import dev.quaestor.settings.RangeChecked;
import dev.quaestor.settings.SettingRanges;
import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.Duration;

/** Subscriptions and the server-to-client stream ({@code quaestor.subscriptions.*}). */
@ConfigMapping(prefix = "quaestor.subscriptions")
public interface SubscriptionConfig extends RangeChecked {

    /** Changes within one window are sent as one notification per URI per session. */
    @WithDefault("300ms")
    Duration coalesceWindow();

    /** A comment is written to every open stream this often so that proxies do not cut it. */
    @WithDefault("15S")
    Duration keepAlive();

    /** How often a replica checks that the sessions of its streams are still live and still its own. */
    @WithDefault("5S")
    Duration streamCheckInterval();

    /** Subscriptions one 2025 MCP session may hold ({@code resources/subscribe}). */
    @WithDefault("1000")
    int maxPerSession();

    /**
     * Resource URIs one {@code subscriptions/listen} (2026-07-28) may name; beyond it the listen is refused. Each URI
     * it names costs the caller one token of its rate limit.
     */
    @WithDefault("100")
    int maxListenUris();

    /**
     * {@code subscriptions/listen} streams (2026-07-28) open at once on this replica; beyond it a listen gets
     * 503 / -32005 before anything is judged.
     */
    @WithDefault("10000")
    int maxListenStreams();

    /** Changed URIs held between two flushes; beyond this, further changes in the window are dropped (counted). */
    @WithDefault("10000")
    int maxPendingChanges();

    /** Allowed ranges: {@code coalesce-window} 0 or more, the other durations more than 0, every count at least 1. */
    @Override
    default void checkRanges(SettingRanges r) {
        String p = "quaestor.subscriptions.";
        r.notNegative(p + "coalesce-window", coalesceWindow())
                .positive(p + "keep-alive", keepAlive())
                .positive(p + "stream-check-interval", streamCheckInterval())
                .atLeast(p + "max-per-session", maxPerSession(), 1)
                .atLeast(p + "max-listen-uris", maxListenUris(), 1)
                .atLeast(p + "max-listen-streams", maxListenStreams(), 1)
                .atLeast(p + "max-pending-changes", maxPendingChanges(), 1);
    }
}
