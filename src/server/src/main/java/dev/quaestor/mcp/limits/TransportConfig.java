package dev.quaestor.mcp.limits;

import dev.quaestor.settings.RangeChecked;
import dev.quaestor.settings.SettingRanges;
import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.util.List;
import java.util.Optional;

@ConfigMapping(prefix = "quaestor.http")
public interface TransportConfig extends RangeChecked {

    /**
     * Host header values (host name, without port) accepted on every path but /q/health and /q/metrics; anything
     * else gets 403. Protects against DNS rebinding, and keeps anything built from the Host on the server's own
     * names. Add the server's public name in production (the host of {@link #publicUrl} is always accepted).
     */
    @WithDefault("localhost,127.0.0.1,[::1]")
    List<String> allowedHosts();

    /**
     * Origin header values accepted on /mcp; {@code :*} allows any port. Requests without an
     * Origin (non-browser clients) are accepted.
     */
    @WithDefault("http://localhost:*,http://127.0.0.1:*,http://[::1]:*,https://localhost:*")
    List<String> allowedOrigins();

    /**
     * Public base URL ({@code scheme://host[:port]}, nothing after it) used in the PRM document, the 401 challenge
     * and the console's OIDC redirect URI; derived from the request if unset. Required in prod when the console is
     * on ({@code dev.quaestor.console.ConsolePublicUrl}).
     */
    Optional<String> publicUrl();

    /** How long a replica trusts its cached view of a session before re-reading it. */
    @WithDefault("5S")
    java.time.Duration sessionCacheTtl();

    /**
     * MCP requests (POST, GET, DELETE) this replica works on at once, counted from when the token is verified and the
     * body, if any, read (a GET until its stream is open); beyond it requests get 503 / -32005 with Retry-After at once
     * rather than waiting in an unbounded queue.
     */
    @WithDefault("256")
    int maxInFlight();

    /**
     * How long an MCP POST's body may take to arrive once its headers have (it is read on the I/O
     * thread, holding no worker and no place in flight); past it the request gets 408 and the connection is closed.
     */
    @WithDefault("10S")
    java.time.Duration bodyTimeout();

    /**
     * The least average rate, in bytes a second, at which an MCP POST's body must arrive once {@link #bodyGrace} has
     * passed (counted from then); below it the request gets 408 and the connection is closed. 0: no minimum.
     */
    @WithDefault("1024")
    long bodyMinRate();

    /** How long a body may take before {@link #bodyMinRate} applies to it. */
    @WithDefault("2S")
    java.time.Duration bodyGrace();

    /**
     * MCP POST bodies this replica reads at once (a body that came with its headers holds its place only for a moment); past it a
     * request gets 503 / -32005 at once. Apart from {@link #maxInFlight}: a body still arriving holds no place there.
     */
    @WithDefault("128")
    int maxBodyReaders();

    /**
     * Messages one JSON-RPC batch (2025-03-26 sessions) may hold; a larger batch gets 400 / -32600 before any of it
     * is done. Each request in a batch is charged to the caller's rate limit on its own.
     */
    @WithDefault("50")
    int maxBatch();

    /**
     * Content bytes one batch's answer may hold: a read that would take it past this is refused inside the batch
     * (-32600, on record as {@code refused-in-batch}), never held; read alone it is served, streamed if large.
     */
    @WithDefault("2097152")
    long maxBatchBytes();

    /**
     * Allowed ranges: {@code session-cache-ttl}, {@code body-grace} and {@code body-min-rate} 0 or more,
     * {@code body-timeout} more than 0, every other count and size at least 1.
     */
    @Override
    default void checkRanges(SettingRanges r) {
        String p = "quaestor.http.";
        r.notNegative(p + "session-cache-ttl", sessionCacheTtl())
                .atLeast(p + "max-in-flight", maxInFlight(), 1)
                .positive(p + "body-timeout", bodyTimeout())
                .atLeast(p + "body-min-rate", bodyMinRate(), 0)
                .notNegative(p + "body-grace", bodyGrace())
                .atLeast(p + "max-body-readers", maxBodyReaders(), 1)
                .atLeast(p + "max-batch", maxBatch(), 1)
                .atLeast(p + "max-batch-bytes", maxBatchBytes(), 1);
    }
}
