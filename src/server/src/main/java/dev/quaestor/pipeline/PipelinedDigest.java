package dev.quaestor.pipeline;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Executor;

/**
 * The SHA-256 of a stream of chunks, computed on another thread while the caller goes on encoding
 * and writing each chunk. SHA-256 is the most expensive step of a large read (about 1.7 GB/s on
 * one core with the CPU's SHA extensions, where base64 runs at 30 GB/s), so doing it beside the
 * rest nearly halves the time a large read holds the worker. Chunks are hashed strictly in the
 * order they were given: each update runs after the one before it.
 *
 * <p>Not thread-safe: one caller feeds it, and must not change a chunk until the future that
 * {@link #update} returned for it has completed.
 */
final class PipelinedDigest {

    private final MessageDigest sha;
    private final Executor executor;
    private CompletableFuture<Void> tail = CompletableFuture.completedFuture(null);

    PipelinedDigest(Executor executor) {
        this.executor = executor;
        try {
            this.sha = MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Queues {@code len} bytes of {@code chunk}; completes once they are hashed and the chunk is free again. */
    CompletableFuture<Void> update(byte[] chunk, int len) {
        tail = tail.thenRunAsync(() -> sha.update(chunk, 0, len), executor);
        return tail;
    }

    /**
     * Waits for every queued chunk, then returns the digest of all of them. Also after a failure
     * part-way: the chunks that were queued are still hashed, so an aborted read's digest covers
     * exactly the bytes it counted.
     */
    byte[] digest() {
        try {
            tail.join();
        } catch (CompletionException e) {
            throw new IllegalStateException("hashing streamed content failed", e.getCause());
        }
        return sha.digest();
    }
}
