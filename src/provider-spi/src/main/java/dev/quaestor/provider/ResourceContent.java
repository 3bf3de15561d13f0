package dev.quaestor.provider;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;

/**
 * The bytes of one resource as served, held in memory ({@link #of}) or opened on demand as a
 * stream ({@link #streamed}) so that a large resource is never held whole. {@code text} says
 * whether they go out as UTF-8 {@code text} or as a base64 {@code blob}; the audit digest is
 * always over exactly these bytes.
 *
 * <p>The server opens a streamed resource at most once per read, inside the mount's time box,
 * and closes the stream when the response is written or fails.
 */
public final class ResourceContent {

    /** {@link #length()} when the provider does not know the size in advance. */
    public static final long UNKNOWN_LENGTH = -1;

    /** Opens the resource's bytes; called once per read, on the request's thread. */
    @FunctionalInterface
    public interface Opener {
        InputStream open() throws IOException;
    }

    private final ResourceEntry entry;
    private final boolean text;
    private final byte[] bytes;
    private final Opener opener;
    private final long length;

    private ResourceContent(ResourceEntry entry, boolean text, byte[] bytes, Opener opener, long length) {
        if (entry == null) {
            throw new IllegalArgumentException("entry is required");
        }
        this.entry = entry;
        this.text = text;
        this.bytes = bytes;
        this.opener = opener;
        this.length = length;
    }

    /** Small content, already in memory. */
    public ResourceContent(ResourceEntry entry, byte[] bytes, boolean text) {
        this(entry, text, requireBytes(bytes), null, bytes.length);
    }

    /** Small content, already in memory. */
    public static ResourceContent of(ResourceEntry entry, byte[] bytes, boolean text) {
        return new ResourceContent(entry, bytes, text);
    }

    /**
     * Content read from {@code opener} as it is sent. {@code length} is the size if known (it is
     * checked against the mount's {@code max-bytes} before anything is sent), else
     * {@link #UNKNOWN_LENGTH}. A text resource must be UTF-8 throughout: a read that finds
     * otherwise part-way is aborted.
     */
    public static ResourceContent streamed(ResourceEntry entry, boolean text, long length, Opener opener) {
        if (opener == null) {
            throw new IllegalArgumentException("opener is required");
        }
        if (length < UNKNOWN_LENGTH) {
            throw new IllegalArgumentException("length must be >= 0 or UNKNOWN_LENGTH");
        }
        return new ResourceContent(entry, text, null, opener, length);
    }

    private static byte[] requireBytes(byte[] bytes) {
        if (bytes == null) {
            throw new IllegalArgumentException("bytes are required");
        }
        return bytes;
    }

    public ResourceEntry entry() {
        return entry;
    }

    public boolean text() {
        return text;
    }

    /** The size in bytes, or {@link #UNKNOWN_LENGTH}. */
    public long length() {
        return length;
    }

    /** True if the bytes are in memory ({@link #bytes()} may be called). */
    public boolean inMemory() {
        return bytes != null;
    }

    /** The bytes of in-memory content; a streamed resource has none ({@link #open()} it instead). */
    public byte[] bytes() {
        if (bytes == null) {
            throw new IllegalStateException("streamed content: use open()");
        }
        return bytes;
    }

    /** A stream over the bytes (in-memory or streamed); the caller closes it. */
    public InputStream open() throws IOException {
        return bytes != null ? new ByteArrayInputStream(bytes) : opener.open();
    }
}
