package dev.quaestor.identity;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.RemovalCause;
import com.github.benmanes.caffeine.cache.Scheduler;
import dev.quaestor.audit.AuditEvent;
import dev.quaestor.audit.AuditLog;
import dev.quaestor.audit.Caller;
import dev.quaestor.audit.RequestIds;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Counts the requests turned away from one address past its limit, instead of recording each: the
 * first of a window is recorded at once, and when the window closes (or the server stops) one
 * {@code ATTEMPT_SUMMARY} says exactly how many there were, the first and the last. A flood cannot
 * make the server write without bound, and nothing is dropped uncounted.
 */
final class RefusedAttempts {

    private static final class Tally {
        final AtomicLong count = new AtomicLong();
        final Instant first = Instant.now();
        volatile Instant last = first;
        volatile String userAgent;
        volatile String method;
    }

    private final AuditLog audit;
    private final Cache<String, Tally> open;

    RefusedAttempts(AuditLog audit, Duration window) {
        this.audit = audit;
        this.open = Caffeine.newBuilder().maximumSize(100_000).expireAfterWrite(window)
                .scheduler(Scheduler.systemScheduler()) // close windows on time, not on the next access
                .removalListener((String ip, Tally t, RemovalCause cause) -> {
                    if (ip != null && t != null) {
                        summarize(ip, t);
                    }
                })
                .build();
    }

    /** Counts one refused attempt; the first of a window is recorded at once. */
    void refused(String ip, String userAgent, String method) {
        boolean[] opened = {false};
        Tally t = open.get(ip, k -> {
            opened[0] = true;
            return new Tally();
        });
        t.count.incrementAndGet();
        t.last = Instant.now();
        t.userAgent = userAgent;
        t.method = method;
        if (opened[0]) {
            audit.appendLater(AuditEvent.of(AuditEvent.Kind.AUTHENTICATION, RequestIds.next())
                    .caller(Caller.anonymous(ip, userAgent, null)).method(method).decision("DENY").outcome("throttled")
                    .errorCode(-32004)
                    .detail("too many refused authentications from this address; further ones are counted in an ATTEMPT_SUMMARY")
                    .build());
        }
    }

    /** Closes every open window (at shutdown): each gets its summary. */
    void closeAll() {
        open.invalidateAll();
        open.cleanUp();
    }

    private void summarize(String ip, Tally t) {
        audit.appendLater(AuditEvent.of(AuditEvent.Kind.ATTEMPT_SUMMARY, RequestIds.next())
                .caller(Caller.anonymous(ip, t.userAgent, null)).method(t.method).decision("DENY").outcome("throttled")
                .errorCode(-32004).summary(t.count.get(), t.first, t.last)
                .detail(t.count.get() + " request(s) from this address turned away before any token check").build());
    }
}
