package dev.quaestor.provider;

/** The resource exists but is larger than its mount allows to be served. */
public class ContentTooLargeException extends RuntimeException {

    private final long maxBytes;

    public ContentTooLargeException(long maxBytes) {
        super("resource exceeds the mount's limit of " + maxBytes + " bytes", null, false, false);
        this.maxBytes = maxBytes;
    }

    public long maxBytes() {
        return maxBytes;
    }
}
