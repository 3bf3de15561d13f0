package dev.quaestor.pipeline;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.SequenceInputStream;
import java.nio.charset.CharacterCodingException;
import java.util.HexFormat;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import org.jboss.logging.Logger;

/**
 * A read whose content is too large to hold: it is encoded as it is read from the provider and
 * written to the response, with its SHA-256 (on a digest thread, {@link PipelinedDigest}) and byte
 * count computed on the way. The order of
 * {@link #writeTo} is the request path's last step for large content (see {@link ResourcePipeline}), and it
 * writes the OUTCOME through the request's {@link Trail}:
 *
 * <ol>
 *   <li>the caller has already committed the DECISION record (before the first byte);</li>
 *   <li>the response's opening bytes, then the content, encoded as it is read;</li>
 *   <li>the OUTCOME record (bytes, SHA-256 of exactly the bytes written), committed;</li>
 *   <li>only then the closing bytes that make the response complete.</li>
 * </ol>
 *
 * If the content fails part-way (provider error, over {@code max-bytes}, text that is not UTF-8 although it was
 * when {@link TextCheck} read it through, client gone) or the OUTCOME cannot be committed, the closing bytes are never written and
 * {@link #writeTo} throws: the caller must then cut the connection, so the client never receives a
 * complete, valid response. Failures are audited as outcomes with the bytes read so far.
 */
public final class StreamedRead implements ReadResult {

    private static final Logger LOG = Logger.getLogger(StreamedRead.class);
    /**
     * Read buffer; a multiple of 3 so that base64 needs no carry between full chunks, and large
     * enough that handing a chunk to the digest thread costs little beside hashing it (about 110 µs).
     * Its base64 is exactly four 64 KiB response writes.
     */
    static final int CHUNK = 192 * 1024;
    /** Read buffers per streamed read: one being hashed, one being encoded, one being read into. */
    static final int RING = 3;

    private final Trail trail;
    private final String mimeType;
    private final boolean text;
    private final byte[] head;
    private final InputStream rest;
    private final long maxBytes;
    private final Executor digests;
    private boolean used;
    /** Guards the three below: whether the OUTCOME said ok, why the answer was lost (null: not lost), whether told. */
    private final Object ending = new Object();
    private boolean recorded;
    private String lostBecause;
    private boolean told;

    /**
     * @param trail the read's trail, its DECISION already durable: this writes its OUTCOME
     * @param content the content as opened, its first bytes read and the rest still open
     * @param maxBytes the mount's limit, which content growing while it is streamed must not pass
     */
    StreamedRead(Trail trail, OpenedContent content, long maxBytes, Executor digests) {
        this.trail = trail;
        this.mimeType = content.entry().mimeType();
        this.text = content.text();
        this.head = content.head();
        this.rest = content.rest();
        this.maxBytes = maxBytes;
        this.digests = digests;
    }

    public String uri() {
        return trail.uri();
    }

    /** May be null. */
    public String mimeType() {
        return mimeType;
    }

    /** True for a {@code text} value (JSON-escaped UTF-8), false for a base64 {@code blob}. */
    public boolean text() {
        return text;
    }

    /**
     * Writes {@code opening}, the encoded content and, once the OUTCOME is committed, {@code closing}.
     * Throws (after auditing what happened) if the response must not be completed.
     */
    public void writeTo(OutputStream out, byte[] opening, byte[] closing) throws IOException {
        if (used) {
            throw new IllegalStateException("a streamed read is written once");
        }
        used = true;
        var sha = new PipelinedDigest(digests);
        long count = 0;
        String failure = null;
        String detail = null;
        String digest;
        try (InputStream in = new SequenceInputStream(new ByteArrayInputStream(head), rest)) {
            ContentEncoder encoder = ContentEncoder.forContent(text);
            out.write(opening);
            // A chunk is hashed on a digest thread while this thread encodes and writes it, so a
            // buffer is read into again only once its hash is done: RING buffers take turns.
            byte[][] ring = new byte[RING][CHUNK];
            @SuppressWarnings("unchecked")
            CompletableFuture<Void>[] hashed = new CompletableFuture[RING];
            for (int slot = 0; ; slot = (slot + 1) % RING) {
                byte[] buf = ring[slot];
                if (hashed[slot] != null) {
                    hashed[slot].join();
                }
                int n = in.readNBytes(buf, 0, buf.length);
                if (n <= 0) {
                    break;
                }
                count += n;
                hashed[slot] = sha.update(buf, n);
                if (count > maxBytes) {
                    failure = "too-large";
                    detail = "content grew past the mount's max-bytes (" + maxBytes + ") while streaming";
                    throw new IOException(detail);
                }
                encoder.write(buf, n, out);
            }
            encoder.finish(out);
            digest = HexFormat.of().formatHex(sha.digest());
        } catch (CharacterCodingException e) {
            failure = "error";
            // Text is streamed only once every byte was checked to be UTF-8 (TextCheck): the content changed since.
            detail = "text content is not valid UTF-8 within its first " + count + " bytes, though all of it was"
                    + " when checked before sending: it changed while being read; response aborted";
            throw abort(failure, count, sha, detail, e);
        } catch (TimeBoxedStream.Expired e) {
            failure = "timeout";
            detail = e.getMessage() + " after " + count + " bytes; response aborted";
            throw abort(failure, count, sha, detail, e);
        } catch (IOException | RuntimeException e) {
            if (failure == null) {
                // Reading the provider's stream or writing to the client failed; which one is in the message.
                failure = "aborted";
                detail = "response aborted after " + count + " bytes: " + e;
            }
            throw abort(failure, count, sha, detail, e);
        }
        try {
            trail.streamed(Outcome.ok().content(count, digest));
        } catch (RuntimeException e) {
            // Not audited, so not completed: the caller cuts the connection before the closing bytes.
            throw new IOException("outcome of a streamed read could not be committed; response aborted", e);
        }
        recordedOk();
        try {
            out.write(closing);
            out.flush();
        } catch (IOException | RuntimeException e) {
            lost("the response's closing bytes could not be written: " + e);
            throw e;
        }
    }

    /**
     * The answer did not reach the client whole (the connection closed, or writing failed, before its end), from any
     * thread, at any time. Once the read's {@code OUTCOME} has said {@code ok}, that gets a second {@code OUTCOME},
     * {@code aborted}, recorded once; before, nothing is recorded here, since the read's own {@code OUTCOME} then
     * says how it broke off.
     */
    public void lost(String why) {
        boolean tell;
        synchronized (ending) {
            if (lostBecause == null) {
                lostBecause = why;
            }
            tell = recorded && !told;
            told |= tell;
        }
        if (tell) {
            trail.undelivered(why);
        }
    }

    /** The {@code OUTCOME} {@code ok} is committed: an answer lost before now is recorded as such now. */
    private void recordedOk() {
        String why;
        synchronized (ending) {
            recorded = true;
            why = told ? null : lostBecause;
            told |= why != null;
        }
        if (why != null) {
            trail.undelivered(why);
        }
    }

    /**
     * For a read that will not be written (refused after the provider opened it): closes the stream
     * and audits why.
     */
    public void discard(String outcome, Integer errorCode, String detail) {
        used = true;
        try {
            rest.close();
        } catch (IOException e) {
            LOG.debugf("closing a discarded stream: %s", e);
        }
        trail.failed(Outcome.of(outcome).code(errorCode).content(0, null).detail(detail));
    }

    private IOException abort(String outcome, long count, PipelinedDigest sha, String detail, Exception cause) {
        String digest = null;
        try {
            digest = HexFormat.of().formatHex(sha.digest());
        } catch (RuntimeException e) {
            LOG.errorf("digest of an aborted streamed read of %s could not be computed: %s", trail.uri(), e);
        }
        try {
            // The bytes read so far (some may not have reached the client): an upper bound of what was disclosed.
            trail.brokeOff(Outcome.of(outcome).content(count, digest).detail(detail));
        } catch (RuntimeException e) {
            LOG.errorf("outcome of an aborted streamed read of %s could not be committed: %s", trail.uri(), e);
        }
        return cause instanceof IOException io ? io : new IOException(detail, cause);
    }
}
