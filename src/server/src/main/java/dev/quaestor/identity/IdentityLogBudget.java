package dev.quaestor.identity;

import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;

/**
 * How many records each identity-library logger may put in the log a minute: {@value #PER_MINUTE}. Some of those
 * records are one per request (Quarkus's code flow logs every console sign-in whose ID token does not verify at
 * ERROR), so a client replaying a stale cookie could otherwise write the log as fast as it can send; the refusals
 * themselves are on the audit trail, bounded there by {@link UnauthenticatedThrottle}. Past the budget, records are
 * counted, not logged, and {@link IdentityLogReport} says how many each minute.
 *
 * <p>One per logger, so that one noisy logger does not silence another. Shared by the log filter (made by the log
 * manager, not by CDI) and the report, hence the one instance.
 */
final class IdentityLogBudget {

    static final int PER_MINUTE = 10;
    static final IdentityLogBudget SHARED = new IdentityLogBudget(() -> System.currentTimeMillis() / 60_000);

    private final LongSupplier minute;
    private final Map<String, Minute> byLogger = new ConcurrentHashMap<>();

    IdentityLogBudget(LongSupplier minute) {
        this.minute = minute;
    }

    /** Whether this logger may log one more record now; if not, it is counted among those not logged. */
    boolean admit(String logger) {
        long now = minute.getAsLong();
        Minute m = byLogger.computeIfAbsent(logger == null ? "" : logger, k -> new Minute());
        synchronized (m) {
            if (m.minute != now) {
                m.minute = now;
                m.logged = 0;
            }
            if (m.logged < PER_MINUTE) {
                m.logged++;
                return true;
            }
            m.notLogged++;
            return false;
        }
    }

    /** The records not logged since the last call, by logger (only loggers with some), and starts counting again. */
    Map<String, Long> takeNotLogged() {
        Map<String, Long> out = new TreeMap<>();
        byLogger.forEach((logger, m) -> {
            synchronized (m) {
                if (m.notLogged > 0) {
                    out.put(logger, m.notLogged);
                    m.notLogged = 0;
                }
            }
        });
        return out;
    }

    private static final class Minute {
        long minute = Long.MIN_VALUE;
        int logged;
        long notLogged;
    }
}
