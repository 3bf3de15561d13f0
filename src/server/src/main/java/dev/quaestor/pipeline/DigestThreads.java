package dev.quaestor.pipeline;

import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The threads that hash streamed content beside the request's worker ({@link PipelinedDigest}), one
 * per core. They are not the request worker pool: a hash never waits on anything, and a read
 * waiting for its hash must not take a worker another request needs. The queue holds at most a
 * few chunks per streamed read in progress (see {@link StreamedRead}), so it stays small.
 */
@ApplicationScoped
public class DigestThreads implements java.util.concurrent.Executor {

    private final ExecutorService pool;

    DigestThreads() {
        var n = new AtomicInteger();
        pool = Executors.newFixedThreadPool(Math.max(1, Runtime.getRuntime().availableProcessors()), r -> {
            var t = new Thread(r, "quaestor-digest-" + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        });
    }

    @Override
    public void execute(Runnable task) {
        pool.execute(task);
    }

    @PreDestroy
    void stop() {
        pool.shutdown();
    }
}
