package dev.quaestor.http;

import dev.quaestor.settings.RangeChecked;
import dev.quaestor.settings.SettingRanges;
import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.Duration;
import java.util.OptionalInt;

/**
 * The write deadline of every streamed response (large reads, audit exports, event streams): each write to the
 * client must be done within {@link #writeDeadline} plus its size at {@link #minWriteRate}; a client that reads
 * slower, or not at all, is cut off and what it held is given back.
 */
@ConfigMapping(prefix = "quaestor.streams")
public interface StreamConfig extends RangeChecked {

    /** The time any one write may take, before its size is counted. */
    @WithDefault("10S")
    Duration writeDeadline();

    /** The slowest a write may go, in bytes per second: a write of n bytes gets {@code n / rate} on top of the deadline. */
    @WithDefault("16384")
    long minWriteRate();

    /**
     * The send buffer of every connection, in bytes ({@code SO_SNDBUF}); unset: the operating system's, which Linux
     * grows for a fast connection up to {@code net.ipv4.tcp_wmem}'s maximum. A write counts as taken once it is in
     * that buffer, so a large buffer lets a slow client be cut off although it reads faster than
     * {@link #minWriteRate}: bound it when slow clients are served directly (not behind a buffering ingress).
     */
    OptionalInt sendBuffer();

    /** Allowed ranges: {@code write-deadline} more than 0, {@code min-write-rate} 0 or more, {@code send-buffer} 4096 or more. */
    @Override
    default void checkRanges(SettingRanges r) {
        r.positive("quaestor.streams.write-deadline", writeDeadline())
                .atLeast("quaestor.streams.min-write-rate", minWriteRate(), 0);
        sendBuffer().ifPresent(b -> r.atLeast("quaestor.streams.send-buffer", b, 4096));
    }
}
