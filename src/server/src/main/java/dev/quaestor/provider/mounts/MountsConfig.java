package dev.quaestor.provider.mounts;

import dev.quaestor.settings.RangeChecked;
import dev.quaestor.settings.SettingRanges;
import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import io.smallrye.config.WithParentName;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.TreeMap;

@ConfigMapping(prefix = "quaestor.mounts")
public interface MountsConfig extends RangeChecked {

    @WithParentName
    Map<String, MountConfig> mounts();

    /**
     * Each mount's {@code max-bytes}, {@code bulkhead}, {@code timeout-ms} and the breaker's {@code request-volume} and
     * {@code delay-ms} at least 1, {@code ttl-ms} at least 0, {@code subject-share} and the breaker's
     * {@code failure-ratio} more than 0 and at most 1: checked at start, not on the mount's first read.
     */
    @Override
    default void checkRanges(SettingRanges r) {
        for (var e : new TreeMap<>(mounts()).entrySet()) {
            String p = "quaestor.mounts." + e.getKey() + ".";
            MountConfig m = e.getValue();
            r.atLeast(p + "max-bytes", m.maxBytes(), 1)
                    .atLeast(p + "ttl-ms", m.ttlMs(), 0)
                    .atLeast(p + "bulkhead", m.bulkhead(), 1)
                    .share(p + "subject-share", m.subjectShare());
            if (m.timeoutMs().isPresent()) {
                r.atLeast(p + "timeout-ms", m.timeoutMs().getAsLong(), 1);
            }
            CircuitBreaker cb = m.circuitBreaker();
            r.atLeast(p + "circuit-breaker.request-volume", cb.requestVolume(), 1)
                    .share(p + "circuit-breaker.failure-ratio", cb.failureRatio())
                    .atLeast(p + "circuit-breaker.delay-ms", cb.delayMs(), 1);
        }
    }

    interface MountConfig {
        /** Provider type, e.g. filesystem, static. */
        String provider();

        /** The URI prefix clients see, e.g. file:///docs/. */
        String uri();

        /** filesystem: directory that holds the bytes. */
        Optional<String> root();

        /** static: the YAML catalogue. */
        Optional<String> file();

        /** git: the repository. */
        Optional<String> repository();

        /** Largest resource served, in bytes. */
        @WithDefault("10485760")
        long maxBytes();

        /**
         * How long (milliseconds) a client may reuse a result from this mount before asking again: the
         * {@code ttlMs} of MCP 2026-07-28 results. 0, the default, means every use asks the server again,
         * so every use is judged by policy and audited.
         */
        @WithDefault("0")
        long ttlMs();

        /** Provider calls on this mount past this many milliseconds fail with -32001 (default quaestor.provider.timeout-ms). */
        OptionalLong timeoutMs();

        /** Bulkhead: provider calls on this mount in flight at once; more fail at once with -32005. */
        @WithDefault("64")
        int bulkhead();

        /**
         * The share (above 0, at most 1) of {@link #bulkhead} one subject may hold: provider calls of one subject in
         * flight on this mount at once, at least one; more of its calls fail at once with -32004 while the rest of the
         * bulkhead stays for other subjects. A share that comes to the whole bulkhead leaves only the bulkhead's bound.
         */
        @WithDefault("0.25")
        double subjectShare();

        /** Circuit breaker around this mount's provider. */
        CircuitBreaker circuitBreaker();

        /** Provider-specific settings. */
        Map<String, String> options();
    }

    interface CircuitBreaker {
        /** Default: on for providers that reach over the network (their factory says so), off otherwise. */
        Optional<Boolean> enabled();

        /** Calls in the rolling window the failure ratio is judged over. */
        @WithDefault("20")
        int requestVolume();

        /** Share of failed calls in the window that opens the breaker. */
        @WithDefault("0.5")
        double failureRatio();

        /** How long the breaker stays open before letting a trial call through, in milliseconds. */
        @WithDefault("10000")
        long delayMs();
    }
}
