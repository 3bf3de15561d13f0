package dev.quaestor.pipeline;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * A time box runs out even when every worker is busy: the guarded calls run on the async executor, so with all its
 * threads blocked in a hung provider, a time box whose end waited for one of them would never end.
 */
class TimeBoxExecutorsTest {

    @Test
    void aTimeBoxEndsWhileEveryWorkerIsBlocked() throws Exception {
        ExecutorService workers = Executors.newFixedThreadPool(1);
        var hung = new CountDownLatch(1);
        workers.execute(() -> {
            try {
                hung.await(); // the one worker, blocked in a provider that does not answer
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        var executors = new TimeBoxExecutors(() -> workers);
        try {
            var ended = new CountDownLatch(1);
            executors.getTimer().schedule(50, ended::countDown); // as a synchronous guard schedules: no executor named
            assertTrue(ended.await(2, TimeUnit.SECONDS), "the time box ended although no worker was free");
        } finally {
            hung.countDown();
            executors.tearDown();
            workers.shutdownNow();
        }
    }
}
