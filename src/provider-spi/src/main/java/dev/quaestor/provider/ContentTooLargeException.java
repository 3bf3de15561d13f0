package dev.quaestor.provider;

/** The resource exists but is larger than its mount allows to be served. */
public class ContentTooLargeException extends RuntimeException {

    private final long maxBytes;
    private final long size;

    /** The size is not known, only that it exceeds {@code maxBytes}. */
    public ContentTooLargeException(long maxBytes) {
        this(maxBytes, -1);
    }

    public ContentTooLargeException(long maxBytes, long size) {
        super("resource " + (size >= 0 ? "of " + size + " bytes " : "") + "exceeds the mount's limit of " + maxBytes
                + " bytes", null, false, false);
        this.maxBytes = maxBytes;
        this.size = size;
    }

    public long maxBytes() {
        return maxBytes;
    }

    /** The resource's size in bytes, or -1 if only known to be above the limit. */
    public long size() {
        return size;
    }
}
