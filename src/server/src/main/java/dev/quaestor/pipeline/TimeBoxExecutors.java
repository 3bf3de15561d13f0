package dev.quaestor.pipeline;

import io.smallrye.faulttolerance.AsyncExecutorProvider;
import io.smallrye.faulttolerance.ExecutorHolder;
import io.smallrye.faulttolerance.core.timer.Timer;
import jakarta.annotation.PreDestroy;
import jakarta.annotation.Priority;
import jakarta.enterprise.inject.Alternative;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;

/**
 * SmallRye Fault Tolerance's executors with a {@link DeadlineTimer} in place of its own timer: every time box of
 * every guard (the mounts' guards in {@link ProviderCalls}, and any annotated one) is scheduled on it, and a time
 * box that runs out is acted on by a thread of its own. Everything else, the guards, their order, their metrics and
 * the async executor, stays SmallRye's. This bean takes the place
 * of SmallRye's {@code ExecutorHolder}, whose constructor starts a timer of its own: that one is stopped at once.
 */
@Alternative
@Priority(1)
@Singleton
public class TimeBoxExecutors extends ExecutorHolder {

    private final DeadlineTimer timer;

    @Inject
    public TimeBoxExecutors(AsyncExecutorProvider asyncExecutorProvider) {
        super(asyncExecutorProvider);
        try {
            super.getTimer().shutdown();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        this.timer = new DeadlineTimer(EXPIRY);
    }

    /**
     * Where a time box that runs out is acted on (its call marked timed out and its thread interrupted), unless its
     * guard names an executor. Not the async executor, which is the worker pool the guarded calls run on: with every
     * worker blocked in a hung provider, a time box's end would queue behind them and never come. One thread of its
     * own, as each task is a flag and an interrupt.
     */
    private static final java.util.concurrent.ExecutorService EXPIRY = java.util.concurrent.Executors.newSingleThreadExecutor(r -> {
        var t = new Thread(r, "quaestor-time-box-expiry");
        t.setDaemon(true);
        return t;
    });

    @Override
    public Timer getTimer() {
        return timer;
    }

    @Override
    @PreDestroy
    public void tearDown() {
        try {
            timer.shutdown();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        super.tearDown();
    }
}
