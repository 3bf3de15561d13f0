package dev.quaestor.pipeline;

import io.smallrye.faulttolerance.core.timer.Timer;
import io.smallrye.faulttolerance.core.timer.TimerTask;
import io.smallrye.faulttolerance.core.util.RunnableWrapper;
import java.util.Comparator;
import java.util.NoSuchElementException;
import java.util.concurrent.ConcurrentSkipListSet;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import org.jboss.logging.Logger;

/**
 * The timer behind SmallRye Fault Tolerance's time boxes: one thread that runs each task when its deadline comes,
 * on the task's executor. It is SmallRye's own design (a sorted set of tasks and a parked thread) but for one thing:
 * the thread is woken only when a new task's deadline comes before the one it sleeps until. SmallRye's timer wakes
 * it on every task; every provider call schedules one (its time box) and cancels it a few microseconds later, so on
 * a busy replica that was a thread switch per read. Time boxes of one length are scheduled in deadline order, so
 * here almost none wakes the thread. A cancelled task stays where the thread's sleep was computed from: the thread
 * wakes at its deadline, finds it gone and sleeps again.
 */
final class DeadlineTimer implements Timer {

    private static final Logger LOG = Logger.getLogger(DeadlineTimer.class);
    private static final AtomicInteger IDS = new AtomicInteger();
    /** {@link #sleepsUntil} while the thread is awake: it looks at the tasks again before it sleeps. */
    private static final long AWAKE = Long.MIN_VALUE;
    /** {@link #sleepsUntil} while there is no task: only a new one wakes the thread. */
    private static final long NO_TASK = Long.MAX_VALUE;

    private final int id = IDS.getAndIncrement();
    private final long origin = System.nanoTime();
    private final AtomicLong order = new AtomicLong();
    private final ConcurrentSkipListSet<Task> tasks = new ConcurrentSkipListSet<>(
            Comparator.comparingLong((Task t) -> t.deadline).thenComparingLong(t -> t.order));
    private final Executor defaultExecutor;
    private final AtomicBoolean running = new AtomicBoolean(true);
    private final Thread thread;
    /** The deadline the thread sleeps until, on {@link #now()}'s scale; {@link #AWAKE} or {@link #NO_TASK}. */
    private volatile long sleepsUntil = AWAKE;

    DeadlineTimer(Executor defaultExecutor) {
        this.defaultExecutor = defaultExecutor;
        this.thread = new Thread(this::loop, "quaestor-time-box-timer-" + id);
        thread.setDaemon(true);
        thread.start();
    }

    @Override
    public int getId() {
        return id;
    }

    @Override
    public TimerTask schedule(long delayInMillis, Runnable task) {
        return schedule(delayInMillis, task, null);
    }

    @Override
    public TimerTask schedule(long delayInMillis, Runnable task, Executor executor) {
        // Clamped so that a delay of "forever" cannot overflow the deadline.
        long delay = Math.min(TimeUnit.MILLISECONDS.toNanos(Math.max(0, delayInMillis)), Long.MAX_VALUE / 4);
        var t = new Task(now() + delay, order.getAndIncrement(), RunnableWrapper.INSTANCE.wrap(task),
                executor != null ? executor : defaultExecutor);
        tasks.add(t);
        // Read after the add; the thread publishes its sleep before it looks at the tasks a last time, so one of the
        // two sees the other: either this task is earlier than the sleep it reads and wakes the thread, or the
        // thread sees this task before it sleeps.
        if (t.deadline < sleepsUntil) {
            LockSupport.unpark(thread);
        }
        return t;
    }

    @Override
    public int countScheduledTasks() {
        return tasks.size();
    }

    @Override
    public void shutdown() throws InterruptedException {
        if (running.compareAndSet(true, false)) {
            LockSupport.unpark(thread);
            thread.join();
        }
    }

    private long now() {
        return System.nanoTime() - origin;
    }

    /** The task with the earliest deadline, or null when there is none. */
    private Task earliest() {
        try {
            return tasks.first();
        } catch (NoSuchElementException none) {
            return null;
        }
    }

    private void loop() {
        while (running.get()) {
            try {
                sleepsUntil = AWAKE;
                Task first = earliest();
                long now = now();
                if (first != null && first.deadline <= now) {
                    if (tasks.remove(first)) {
                        first.executor.execute(first);
                    }
                    continue;
                }
                sleepsUntil = first == null ? NO_TASK : first.deadline;
                Task again = earliest();
                if (again != first) {
                    continue; // an earlier task came in before the sleep was published
                }
                if (first == null) {
                    LockSupport.park(this);
                } else {
                    LockSupport.parkNanos(this, first.deadline - now);
                }
            } catch (RuntimeException e) {
                LOG.warn("a time box's task could not be started", e);
            }
        }
    }

    /** A scheduled task; it runs once, unless cancelled first. */
    private final class Task implements TimerTask, Runnable {

        final long deadline;
        final long order;
        final Executor executor;
        private volatile Runnable runnable;

        Task(long deadline, long order, Runnable runnable, Executor executor) {
            this.deadline = deadline;
            this.order = order;
            this.runnable = runnable;
            this.executor = executor;
        }

        @Override
        public boolean isDone() {
            return runnable == null;
        }

        /** True if the task was still waiting; the set's removal decides between this and the timer's start. */
        @Override
        public boolean cancel() {
            if (tasks.remove(this)) {
                runnable = null;
                return true;
            }
            return false;
        }

        @Override
        public void run() {
            Runnable r = runnable;
            try {
                if (r != null) {
                    r.run();
                }
            } finally {
                runnable = null;
            }
        }
    }
}
