package dev.quaestor.audit.anchor;

import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/**
 * Which checkpoints get a time-stamp ({@code quaestor.audit.anchor.every} and {@code interval}): every one when
 * neither is set; else the Nth since the last anchored one, or the first signed at least the interval after it,
 * whichever comes first.
 */
record AnchorPolicy(Optional<Integer> every, Optional<Duration> interval) {

    AnchorPolicy {
        if (every.isPresent() && every.get() < 1) {
            throw new IllegalStateException("quaestor.audit.anchor.every must be 1 or more, not " + every.get());
        }
    }

    /**
     * @param nth this checkpoint's place after the last anchored one (1: the next)
     * @param signed when this checkpoint was signed
     * @param lastAnchored when the last anchored checkpoint was signed (null: none yet)
     */
    boolean due(int nth, Instant signed, Instant lastAnchored) {
        if (every.isEmpty() && interval.isEmpty()) {
            return true;
        }
        if (every.isPresent() && nth >= every.get()) {
            return true;
        }
        return interval.isPresent() && (lastAnchored == null || signed == null || !signed.isBefore(lastAnchored.plus(interval.get())));
    }
}
