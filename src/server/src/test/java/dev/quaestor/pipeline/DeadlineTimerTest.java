package dev.quaestor.pipeline;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.smallrye.faulttolerance.core.timer.TimerTask;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The time boxes' timer: each task runs once at its deadline unless cancelled, whatever order tasks come in. */
class DeadlineTimerTest {

    private ExecutorService executor;
    private DeadlineTimer timer;

    @BeforeEach
    void start() {
        executor = Executors.newFixedThreadPool(2);
        timer = new DeadlineTimer(executor);
    }

    @AfterEach
    void stop() throws InterruptedException {
        timer.shutdown();
        executor.shutdownNow();
    }

    /**
     * The timer hands tasks to the executor in deadline order. On one executor thread they then also run in that order;
     * on two, tasks that fell due together (a loaded machine that woke the timer late) may run in either order.
     */
    @Test
    void tasksRunAtTheirDeadlinesInDeadlineOrderOnTheExecutor() throws InterruptedException {
        ExecutorService serial = Executors.newSingleThreadExecutor();
        var ordered = new DeadlineTimer(serial);
        try {
            var ran = new CopyOnWriteArrayList<String>();
            var threads = new CopyOnWriteArrayList<String>();
            var done = new CountDownLatch(3);
            long start = System.nanoTime();
            for (var t : List.of(new Object[] {"c", 300}, new Object[] {"a", 100}, new Object[] {"b", 200})) {
                ordered.schedule((Integer) t[1], () -> {
                    ran.add((String) t[0]);
                    threads.add(Thread.currentThread().getName());
                    done.countDown();
                });
            }
            assertTrue(done.await(5, TimeUnit.SECONDS), "all three ran");
            long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
            assertEquals(List.of("a", "b", "c"), ran);
            assertTrue(millis >= 300, "the last ran at its deadline, not before: " + millis + " ms");
            assertTrue(threads.stream().allMatch(n -> n.startsWith("pool-")), "ran on the executor: " + threads);
            assertEquals(0, ordered.countScheduledTasks());
        } finally {
            ordered.shutdown();
            serial.shutdownNow();
        }
    }

    @Test
    void anEarlierTaskWakesTheThreadSleepingForALaterOne() throws InterruptedException {
        var late = new CountDownLatch(1);
        timer.schedule(60_000, late::countDown);
        Thread.sleep(100); // the timer thread is now asleep until the 60 s task
        var early = new CountDownLatch(1);
        long start = System.nanoTime();
        timer.schedule(50, early::countDown);
        assertTrue(early.await(2, TimeUnit.SECONDS), "the 50 ms task ran though the thread slept for a 60 s one");
        long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
        assertTrue(millis >= 50 && millis < 1000, "ran after " + millis + " ms");
        assertEquals(1, late.getCount(), "the 60 s task has not run");
        assertEquals(1, timer.countScheduledTasks());
    }

    @Test
    void aCancelledTaskNeverRunsAndCancelTellsWhoWon() throws InterruptedException {
        var ran = new AtomicInteger();
        // A deadline a busy machine cannot pass between this line and the cancel below.
        long scheduled = System.nanoTime();
        TimerTask cancelled = timer.schedule(1_000, ran::incrementAndGet);
        assertFalse(cancelled.isDone());
        assertTrue(cancelled.cancel(), "cancelled before its deadline");
        assertTrue(cancelled.isDone());
        assertFalse(cancelled.cancel(), "a second cancel has nothing to cancel");

        var done = new CountDownLatch(1);
        TimerTask finished = timer.schedule(10, () -> {
            ran.incrementAndGet();
            done.countDown();
        });
        assertTrue(done.await(2, TimeUnit.SECONDS));
        assertFalse(finished.cancel(), "a task that ran cannot be cancelled");
        // Past the cancelled task's deadline: it did not run.
        Thread.sleep(Math.max(0, 1_200 - TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - scheduled)));
        assertEquals(1, ran.get(), "only the task that was not cancelled ran");
    }

    /**
     * Many threads scheduling at once while the timer thread goes to sleep and wakes: no task is lost (a lost wake-up
     * would leave a short task waiting for the 60 s one) and none runs twice.
     */
    @Test
    void noTaskIsLostOrRunTwiceUnderConcurrentScheduling() throws InterruptedException {
        timer.schedule(60_000, () -> { });
        int threads = 4;
        int perThread = 2_000;
        var runs = new ConcurrentHashMap<Integer, AtomicInteger>();
        var done = new CountDownLatch(threads * perThread);
        var cancelledCount = new AtomicInteger();
        var schedulers = new ArrayList<Thread>();
        for (int s = 0; s < threads; s++) {
            int base = s * perThread;
            var scheduler = new Thread(() -> {
                var random = ThreadLocalRandom.current();
                for (int i = 0; i < perThread; i++) {
                    int key = base + i;
                    TimerTask t = timer.schedule(random.nextInt(6), () -> {
                        runs.computeIfAbsent(key, k -> new AtomicInteger()).incrementAndGet();
                        done.countDown();
                    });
                    if (random.nextInt(4) == 0 && t.cancel()) {
                        cancelledCount.incrementAndGet();
                        done.countDown();
                    }
                }
            });
            scheduler.start();
            schedulers.add(scheduler);
        }
        for (Thread t : schedulers) {
            t.join();
        }
        assertTrue(done.await(10, TimeUnit.SECONDS), done.getCount() + " tasks neither ran nor were cancelled");
        assertEquals(threads * perThread - cancelledCount.get(), runs.size());
        assertTrue(runs.values().stream().allMatch(n -> n.get() == 1), "a task ran more than once");
        assertEquals(1, timer.countScheduledTasks(), "only the 60 s task is left");
    }

    @Test
    void shutdownStopsTheThread() throws InterruptedException {
        var names = Thread.getAllStackTraces().keySet().stream().map(Thread::getName).toList();
        assertTrue(names.contains("quaestor-time-box-timer-" + timer.getId()), names.toString());
        timer.shutdown();
        var after = Thread.getAllStackTraces().keySet().stream().map(Thread::getName).toList();
        assertFalse(after.contains("quaestor-time-box-timer-" + timer.getId()), after.toString());
    }
}
