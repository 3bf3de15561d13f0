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
 * and closes the stream when the response is written or fails; content made {@link #rereadable} it
 * opens twice when it is text (see there).
 */
public final class ResourceContent {

    /** {@link #length()} when the provider does not know the size in advance. */
    public static final long UNKNOWN_LENGTH = -1;

    /** Opens the resource's bytes; called once per read (twice if {@link #rereadable}), on the request's thread. */
    @FunctionalInterface
    public interface Opener {
        InputStream open() throws IOException;
    }

    private final ResourceEntry entry;
    private final boolean text;
    private final byte[] bytes;
    private final Opener opener;
    private final long length;
    private final boolean rereadable;

    private ResourceContent(ResourceEntry entry, boolean text, byte[] bytes, Opener opener, long length,
            boolean rereadable) {
        if (entry == null) {
            throw new IllegalArgumentException("entry is required");
        }
        this.entry = entry;
        this.text = text;
        this.bytes = bytes;
        this.opener = opener;
        this.length = length;
        this.rereadable = rereadable;
    }

    /** Small content, already in memory. */
    public ResourceContent(ResourceEntry entry, byte[] bytes, boolean text) {
        this(entry, text, requireBytes(bytes), null, bytes.length, true);
    }

    /** Small content, already in memory. */
    public static ResourceContent of(ResourceEntry entry, byte[] bytes, boolean text) {
        return new ResourceContent(entry, bytes, text);
    }

    /**
     * Content read from {@code opener} as it is sent. {@code length} is the size if known (it is
     * checked against the mount's {@code max-bytes} before anything is sent), else
     * {@link #UNKNOWN_LENGTH}. {@code opener} is called once per read, so the server cannot know
     * that every byte is UTF-8 before it sends the first: content larger than the server holds
     * goes out as a {@code blob} even if {@code text} (content it holds whole is sent as text if it
     * is UTF-8 throughout). Use {@link #rereadable} where the bytes can be read twice.
     */
    public static ResourceContent streamed(ResourceEntry entry, boolean text, long length, Opener opener) {
        return streamed(entry, text, length, opener, false);
    }

    /**
     * Like {@link #streamed}, for content that can be read twice: {@code opener} may be called a
     * second time in the same read (before the first stream is read to its end), and each stream gives the
     * resource's bytes as they are when read: a file, an immutable object. Text content larger
     * than the server holds is then read once through to check that every byte is UTF-8 before any
     * is sent, and sent from the second stream: as {@code text} if it is, else as a {@code blob}
     * of the same bytes. Should the bytes change between the two so that the text sent is not
     * UTF-8, the read is aborted.
     */
    public static ResourceContent rereadable(ResourceEntry entry, boolean text, long length, Opener opener) {
        return streamed(entry, text, length, opener, true);
    }

    private static ResourceContent streamed(ResourceEntry entry, boolean text, long length, Opener opener,
            boolean rereadable) {
        if (opener == null) {
            throw new IllegalArgumentException("opener is required");
        }
        if (length < UNKNOWN_LENGTH) {
            throw new IllegalArgumentException("length must be >= 0 or UNKNOWN_LENGTH");
        }
        return new ResourceContent(entry, text, null, opener, length, rereadable);
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

    /** True if {@link #open()} may be called twice in one read: content in memory, or made {@link #rereadable}. */
    public boolean rereadable() {
        return rereadable;
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
