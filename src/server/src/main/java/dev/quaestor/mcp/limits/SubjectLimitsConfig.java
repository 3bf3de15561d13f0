package dev.quaestor.mcp.limits;

import dev.quaestor.settings.RangeChecked;
import dev.quaestor.settings.SettingRanges;
import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/**
 * What one subject (the verified token's subject) may hold at once on a replica ({@code quaestor.limits.per-subject}),
 * so that one caller cannot take a shared bound away from everyone else. Past a cap the request is refused with 429
 * and -32004 (Retry-After), on record and counted in {@code quaestor.limits.refused}.
 */
@ConfigMapping(prefix = "quaestor.limits.per-subject")
public interface SubjectLimitsConfig extends RangeChecked {

    /**
     * MCP requests (POST, GET, DELETE) one subject may have in flight; never more than {@link #inFlightShare} of
     * {@code quaestor.http.max-in-flight}.
     */
    @WithDefault("64")
    int inFlight();

    /** The share (0 to 1) of {@code quaestor.http.max-in-flight} one subject may hold, whatever {@link #inFlight} says. */
    @WithDefault("0.25")
    double inFlightShare();

    /** Request bodies of one subject being read at once; never more than a quarter of {@code quaestor.http.max-body-readers}. */
    @WithDefault("8")
    int bodyReaders();

    /** Request bodies up to this many bytes are not charged to {@link #bodyBytesPerSecond}; larger ones pay their size. */
    @WithDefault("16384")
    long bodyBytesFree();

    /** Bytes of request bodies over {@link #bodyBytesFree} one subject may send a second, before they are parsed. */
    @WithDefault("262144")
    long bodyBytesPerSecond();

    /** How many such bytes one subject may send at once (the budget's size). */
    @WithDefault("2097152")
    long bodyBytesBurst();

    /** Live 2025 MCP sessions one subject may hold (across replicas: counted in the session table). */
    @WithDefault("100")
    int sessions();

    /** GET event streams (2025 sessions) one subject may hold open on a replica. */
    @WithDefault("32")
    int streams();

    /** {@code subscriptions/listen} streams (2026-07-28) one subject may hold open on a replica. */
    @WithDefault("32")
    int listens();

    /** Allowed ranges: every count and rate at least 1, {@code body-bytes-free} at least 0. */
    @Override
    default void checkRanges(SettingRanges r) {
        String p = "quaestor.limits.per-subject.";
        r.atLeast(p + "in-flight", inFlight(), 1)
                .atLeast(p + "body-readers", bodyReaders(), 1)
                .atLeast(p + "body-bytes-free", bodyBytesFree(), 0)
                .atLeast(p + "body-bytes-per-second", bodyBytesPerSecond(), 1)
                .atLeast(p + "body-bytes-burst", bodyBytesBurst(), 1)
                .atLeast(p + "sessions", sessions(), 1)
                .atLeast(p + "streams", streams(), 1)
                .atLeast(p + "listens", listens(), 1);
    }
}
