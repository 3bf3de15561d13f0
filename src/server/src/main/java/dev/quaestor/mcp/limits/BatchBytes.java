package dev.quaestor.mcp.limits;

/**
 * The content bytes one JSON-RPC batch's answer may still hold ({@code quaestor.http.max-batch-bytes}): a batch's
 * answer is built whole before it is sent, so its reads are held only while they fit, and a read that would not fit
 * is refused inside the batch (it can be read in a request of its own, streamed if large). A batch therefore holds
 * about what one or two single reads hold, however many reads it carries. Used by one request's thread.
 */
public final class BatchBytes {

    private final long max;
    private long left;

    public BatchBytes(long max) {
        this.max = max;
        this.left = max;
    }

    /** How many bytes the next read may hold. */
    public long left() {
        return left;
    }

    /** A read of {@code bytes} is held in the answer. */
    public void spend(long bytes) {
        left = Math.max(0, left - bytes);
    }

    public long max() {
        return max;
    }
}
