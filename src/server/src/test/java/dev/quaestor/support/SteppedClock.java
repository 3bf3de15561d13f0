package dev.quaestor.support;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;

/**
 * A clock a test moves on, for an audit writer that writes history dated in the past: moved to each event's time
 * before the event is appended, it signs every checkpoint no earlier than the records it covers, as a server's clock
 * does (the verifier refuses a record dated after the checkpoint that covers it). It never goes back.
 */
public final class SteppedClock extends Clock {

    private volatile Instant now;

    public SteppedClock(Instant start) {
        this.now = start;
    }

    /** Moves the clock on to {@code t}; a time before the clock's is ignored. */
    public synchronized void moveTo(Instant t) {
        if (t.isAfter(now)) {
            now = t;
        }
    }

    @Override
    public Instant instant() {
        return now;
    }

    @Override
    public ZoneId getZone() {
        return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
        return this;
    }
}
