package dev.quaestor.support;

import static org.junit.jupiter.api.Assertions.fail;

import java.time.Duration;
import java.util.concurrent.Callable;
import org.awaitility.Awaitility;
import org.awaitility.core.ConditionTimeoutException;

/**
 * Waiting in a test for what the server does in the background (a reload, a notification, a record committed): one
 * helper on Awaitility. The condition is asked at once, then every {@code every} until it holds; if it does not hold
 * within {@code within}, the test fails naming what it waited for. An exception the condition throws fails the test;
 * one thrown by another thread meanwhile is left to that thread, as a hand-written loop would leave it.
 */
public final class Wait {

    private static final Duration EVERY = Duration.ofMillis(20);

    private Wait() {
    }

    /** Waits up to {@code within} for {@code condition}, asking it every 20 ms. */
    public static void until(String what, Duration within, Callable<Boolean> condition) {
        until(what, within, EVERY, condition);
    }

    /** Waits up to {@code within} for {@code condition}, asking it every {@code every}. */
    public static void until(String what, Duration within, Duration every, Callable<Boolean> condition) {
        if (!holdsWithin(within, every, condition)) {
            fail("not within " + within.toMillis() + " ms: " + what);
        }
    }

    /** Whether {@code condition} holds within {@code within}, asking it every 20 ms; a timeout is an answer, not a failure. */
    public static boolean holdsWithin(Duration within, Callable<Boolean> condition) {
        return holdsWithin(within, EVERY, condition);
    }

    /** Whether {@code condition} holds within {@code within}, asking it every {@code every}. */
    public static boolean holdsWithin(Duration within, Duration every, Callable<Boolean> condition) {
        try {
            Awaitility.await().dontCatchUncaughtExceptions().atMost(within).pollDelay(Duration.ZERO).pollInterval(every)
                    .until(condition);
            return true;
        } catch (ConditionTimeoutException e) {
            return false;
        }
    }
}
