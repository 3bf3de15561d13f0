package dev.quaestor.pipeline;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.quaestor.audit.refusals.AuditDoubles;
import dev.quaestor.audit.record.AuditEvent;
import dev.quaestor.audit.write.PendingCommit;
import dev.quaestor.audit.refusals.RecordedRefusal;
import dev.quaestor.policy.Action;
import dev.quaestor.policy.PolicySet;
import dev.quaestor.provider.ResourceEntry;
import dev.quaestor.ratelimit.RateCheck;
import dev.quaestor.uri.UriCanonicalizer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import java.util.concurrent.Executor;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.Test;

/**
 * The order a streamed read is written in: content, then the OUTCOME commit, then the closing bytes;
 * and what happens when any step fails (no closing bytes, the failure audited).
 */
class StreamedReadTest {

    private static final byte[] OPEN = "{\"v\":\"".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] CLOSE = "\"}".getBytes(StandardCharsets.US_ASCII);

    record Outcome(String outcome, long bytes, String sha256, String detail) {
    }

    private final List<Outcome> outcomes = new ArrayList<>();

    /** Real threads, as in the server: chunks are hashed beside the thread that encodes them. */
    private static final Executor DIGESTS = Executors.newFixedThreadPool(2, r -> {
        var t = new Thread(r, "test-digest");
        t.setDaemon(true);
        return t;
    });

    /** The audit log: the OUTCOME records the read's trail commits, in order. */
    private final AuditSink recorded = new AuditSink() {
        @Override
        public PendingCommit submit(AuditEvent e) {
            outcomes.add(new Outcome(e.outcome(), e.bytes() == null ? -1 : e.bytes(), e.contentSha256(), e.detail()));
            return AuditDoubles.committed();
        }

        @Override
        public PendingCommit submitAfter(PendingCommit first, AuditEvent e) {
            return submit(e);
        }

        @Override
        public RecordedRefusal refusal(AuditEvent e) {
            throw new AssertionError("a streamed read refuses nothing");
        }
    };

    /** An audit log that cannot commit anything. */
    private static final AuditSink DOWN = new AuditSink() {
        @Override
        public PendingCommit submit(AuditEvent e) {
            throw new IllegalStateException("audit log down");
        }

        @Override
        public PendingCommit submitAfter(PendingCommit first, AuditEvent e) {
            return submit(e);
        }

        @Override
        public RecordedRefusal refusal(AuditEvent e) {
            throw new IllegalStateException("audit log down");
        }
    };

    private StreamedRead read(byte[] content, int headLength, boolean text, long maxBytes) {
        return read(content, headLength, text, maxBytes, recorded);
    }

    private static StreamedRead read(byte[] content, int headLength, boolean text, long maxBytes, AuditSink audit) {
        byte[] head = Arrays.copyOf(content, headLength);
        var rest = new ByteArrayInputStream(content, headLength, content.length - headLength);
        return streamed("application/octet-stream", text, head, rest, maxBytes, audit, DIGESTS);
    }

    /** A streamed read of file:///x whose trail commits its OUTCOME to {@code audit}. */
    private static StreamedRead streamed(String mimeType, boolean text, byte[] head, InputStream rest, long maxBytes,
            AuditSink audit, Executor digests) {
        Trail trail = PipelineFakes.trails(() -> new PolicySet("rev", List.of(), List.of(), List.of(), List.of()),
                (p, who, ip, action, uri, n) -> RateCheck.UNLIMITED, audit, new SimpleMeterRegistry())
                .open(PipelineFakes.request("req-1"), "resources/read", Action.READ);
        trail.at("file:///x");
        var entry = new ResourceEntry(UriCanonicalizer.canonicalize("file:///x"), "x", null, null, mimeType, null, null);
        return new StreamedRead(trail, new OpenedContent(entry, text, head, rest), maxBytes, digests);
    }

    private static String sha256(byte[] b) throws Exception {
        return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(b));
    }

    @Test
    void base64IsExactlyTheWholeContentsEncodingAndTheOutcomeCarriesItsDigest() throws Exception {
        var random = new Random(1);
        for (int size : new int[] {0, 1, 2, 3, 4, StreamedRead.CHUNK - 1, StreamedRead.CHUNK, StreamedRead.CHUNK + 1, 1_000_003}) {
            for (int headLength : new int[] {0, 1, Math.min(size, 1000), size}) {
                if (headLength > size) {
                    continue;
                }
                byte[] content = new byte[size];
                random.nextBytes(content);
                outcomes.clear();
                var out = new ByteArrayOutputStream();
                read(content, headLength, false, Long.MAX_VALUE).writeTo(out, OPEN, CLOSE);
                String expected = "{\"v\":\"" + Base64.getEncoder().encodeToString(content) + "\"}";
                assertEquals(expected, out.toString(StandardCharsets.US_ASCII), "size " + size + ", head " + headLength);
                assertEquals(List.of(new Outcome("ok", size, sha256(content), null)), outcomes);
            }
        }
    }

    @Test
    void textIsEscapedAsJsonAndDecodesToTheSameString() throws Exception {
        String text = "plain \"quoted\" back\\slash\ttab\r\nnew\u0001ctl\u001f é 漢字 😀 \u2028 end";
        byte[] bytes = text.repeat(5000).getBytes(StandardCharsets.UTF_8);
        // Heads that cut multi-byte characters at every offset, and chunk boundaries inside them.
        for (int headLength : new int[] {0, 1, 40, 41, 42, 43, 44, 45, bytes.length}) {
            var out = new ByteArrayOutputStream();
            read(bytes, headLength, true, Long.MAX_VALUE).writeTo(out, OPEN, CLOSE);
            var parsed = new ObjectMapper().readTree(out.toByteArray());
            assertEquals(text.repeat(5000), parsed.get("v").asText(), "head " + headLength);
        }
        var out = new ByteArrayOutputStream();
        read("a\"b\\c\n\u0000".getBytes(StandardCharsets.UTF_8), 0, true, Long.MAX_VALUE).writeTo(out, OPEN, CLOSE);
        assertEquals("{\"v\":\"a\\\"b\\\\c\\n\\u0000\"}", out.toString(StandardCharsets.UTF_8));
    }

    @Test
    void anOutcomeThatCannotBeCommittedLeavesTheResponseIncomplete() throws Exception {
        byte[] content = new byte[200_000];
        new Random(2).nextBytes(content);
        var out = new ByteArrayOutputStream();
        var failing = read(content, 10, false, Long.MAX_VALUE, DOWN);
        var e = assertThrows(IOException.class, () -> failing.writeTo(out, OPEN, CLOSE));
        assertTrue(e.getMessage().contains("could not be committed"), e.getMessage());
        String written = out.toString(StandardCharsets.US_ASCII);
        assertTrue(written.startsWith("{\"v\":\""));
        assertFalse(written.endsWith("\"}"), "the closing bytes are never written");
        assertEquals(Base64.getEncoder().encodeToString(content), written.substring(OPEN.length),
                "all content was written, only the completion is withheld");
    }

    @Test
    void invalidUtf8InStreamedTextAbortsAndIsAudited() {
        byte[] content = ("ok text ".repeat(20_000) + "\u00e9").getBytes(StandardCharsets.UTF_8);
        content[content.length - 1] = (byte) 0x41; // é's continuation byte replaced: malformed
        var out = new ByteArrayOutputStream();
        assertThrows(IOException.class, () -> read(content, 100, true, Long.MAX_VALUE).writeTo(out, OPEN, CLOSE));
        assertFalse(out.toString(StandardCharsets.UTF_8).endsWith("\"}"));
        assertEquals(1, outcomes.size());
        assertEquals("error", outcomes.get(0).outcome());
        assertTrue(outcomes.get(0).detail().contains("not valid UTF-8"), outcomes.get(0).detail());
    }

    /**
     * Text checked to be UTF-8 throughout and then changed before it is sent: the send's own check still aborts the
     * response, and the OUTCOME says so.
     */
    @Test
    void textThatChangesAfterItWasCheckedAbortsAndTheRecordSaysItChanged() throws Exception {
        byte[] valid = "checked text ".repeat(100_000).getBytes(StandardCharsets.UTF_8);
        byte[] changed = valid.clone();
        changed[1_000_000] = (byte) 0xFF;
        var opens = new java.util.ArrayDeque<>(List.of(valid, changed));
        var content = dev.quaestor.provider.ResourceContent.rereadable(
                new ResourceEntry(UriCanonicalizer.canonicalize("file:///x"), "x", null, null, "text/plain", null, null),
                true, valid.length, () -> new ByteArrayInputStream(opens.remove()));
        var opened = TextCheck.settle(OpenedContent.open(content, 1024, Long.MAX_VALUE, new ArrayList<>()), Long.MAX_VALUE);
        assertTrue(opened.text(), "every byte was UTF-8 when checked");
        var out = new ByteArrayOutputStream();
        assertThrows(IOException.class, () -> streamed("text/plain", true, opened.head(), opened.rest(), Long.MAX_VALUE,
                recorded, DIGESTS).writeTo(out, OPEN, CLOSE));
        assertFalse(out.toString(StandardCharsets.UTF_8).endsWith("\"}"), "never completed");
        assertEquals(1, outcomes.size());
        assertEquals("error", outcomes.get(0).outcome());
        assertTrue(outcomes.get(0).detail().contains("changed while being read"), outcomes.get(0).detail());
    }

    @Test
    void contentGrowingPastMaxBytesAbortsAsTooLarge() {
        byte[] content = new byte[300_000];
        var out = new ByteArrayOutputStream();
        assertThrows(IOException.class, () -> read(content, 10, false, 200_000).writeTo(out, OPEN, CLOSE));
        assertFalse(out.toString(StandardCharsets.US_ASCII).endsWith("\"}"));
        assertEquals("too-large", outcomes.get(0).outcome());
        assertTrue(outcomes.get(0).bytes() > 200_000);
    }

    /**
     * A provider that stalls after its first bytes is held to the mount's time box read by read: the stalled read is
     * ended, the OUTCOME is {@code timeout} with the bytes read so far, and the thread goes on uninterrupted.
     */
    @Test
    void aProviderStreamThatStallsIsEndedAtTheTimeBox() {
        var stalled = new java.util.concurrent.CountDownLatch(1);
        InputStream provider = new InputStream() {
            private int left = StreamedRead.CHUNK; // a chunk's worth, then nothing more

            @Override
            public int read() throws IOException {
                throw new UnsupportedOperationException();
            }

            @Override
            public int read(byte[] b, int off, int len) throws IOException {
                if (left > 0) {
                    int n = Math.min(len, left);
                    left -= n;
                    return n;
                }
                try {
                    stalled.await(); // a backend that stops answering
                } catch (InterruptedException e) {
                    throw new java.io.InterruptedIOException("interrupted");
                }
                return -1;
            }
        };
        var read = streamed("application/octet-stream", false, new byte[10], new TimeBoxedStream(provider, 200), 10_000_000,
                recorded, DIGESTS);
        long start = System.nanoTime();
        assertThrows(IOException.class, () -> read.writeTo(new ByteArrayOutputStream(), OPEN, CLOSE));
        long tookMs = (System.nanoTime() - start) / 1_000_000;
        assertTrue(tookMs < 5_000, "ended at the time box, not when the backend answers: " + tookMs + " ms");
        assertEquals("timeout", outcomes.get(0).outcome(), outcomes.toString());
        assertEquals(StreamedRead.CHUNK, outcomes.get(0).bytes(), "the first chunk went out; the second never came whole");
        assertTrue(outcomes.get(0).detail().contains("200 ms"), outcomes.get(0).detail());
        assertFalse(Thread.currentThread().isInterrupted(), "the interrupt was for the read alone");
        stalled.countDown();
    }

    /** A connection that the client resets once more than {@code limit} bytes have been written to it. */
    private static OutputStream resetAfter(long limit) {
        return new OutputStream() {
            long written;

            @Override
            public void write(int b) throws IOException {
                write(new byte[] {(byte) b}, 0, 1);
            }

            @Override
            public void write(byte[] b, int off, int len) throws IOException {
                written += len;
                if (written > limit) {
                    throw new IOException("connection reset by peer");
                }
            }
        };
    }

    @Test
    void aClientThatGoesAwayIsAuditedAsAbortedWithTheBytesReadSoFar() {
        byte[] content = new byte[500_000];
        var broken = resetAfter(100_000);
        assertThrows(IOException.class, () -> read(content, 0, false, Long.MAX_VALUE).writeTo(broken, OPEN, CLOSE));
        assertEquals("aborted", outcomes.get(0).outcome());
        assertTrue(outcomes.get(0).bytes() > 0 && outcomes.get(0).bytes() < content.length);
        assertTrue(outcomes.get(0).detail().contains("connection reset"), outcomes.get(0).detail());
    }

    @Test
    void anAbortedReadsDigestCoversExactlyTheBytesItCounted() throws Exception {
        byte[] content = new byte[3 * StreamedRead.CHUNK + 12_345];
        new Random(3).nextBytes(content);
        var broken = resetAfter(2L * StreamedRead.CHUNK);
        assertThrows(IOException.class, () -> read(content, 0, false, Long.MAX_VALUE).writeTo(broken, OPEN, CLOSE));
        Outcome o = outcomes.get(0);
        assertEquals("aborted", o.outcome());
        assertTrue(o.bytes() > 0 && o.bytes() < content.length, "bytes " + o.bytes());
        assertEquals(sha256(Arrays.copyOf(content, (int) o.bytes())), o.sha256());
    }

    @Test
    void aSlowDigestThreadNeverSeesABufferReusedBeforeItsHashIsDone() throws Exception {
        // Hashing much slower than reading and encoding: if a buffer were read into again before its
        // hash ran, the digest would cover other bytes than those sent.
        Executor slow = task -> DIGESTS.execute(() -> {
            try {
                Thread.sleep(3);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            task.run();
        });
        byte[] content = new byte[12 * StreamedRead.CHUNK + 7];
        new Random(4).nextBytes(content);
        var out = new ByteArrayOutputStream();
        var rest = new ByteArrayInputStream(content, 100, content.length - 100);
        streamed(null, false, Arrays.copyOf(content, 100), rest, Long.MAX_VALUE, recorded, slow)
                .writeTo(out, OPEN, CLOSE);
        assertEquals(List.of(new Outcome("ok", content.length, sha256(content), null)), outcomes);
        assertEquals("{\"v\":\"" + Base64.getEncoder().encodeToString(content) + "\"}", out.toString(StandardCharsets.US_ASCII));
    }

    @Test
    void anAnswerLostAfterItsOutcomeSaidOkGetsOneAbortedOutcome() throws Exception {
        byte[] content = new byte[50_000];
        // The closing bytes fail: the OUTCOME said ok, so a second one says the answer did not reach the client.
        var r = read(content, 0, false, Long.MAX_VALUE);
        var broken = resetAfter(OPEN.length + Base64.getEncoder().encodeToString(content).length());
        assertThrows(IOException.class, () -> r.writeTo(broken, OPEN, CLOSE));
        r.lost("the connection closed"); // the response's end, seen by the endpoint: recorded once only
        assertEquals(List.of("ok", "aborted"), outcomes.stream().map(Outcome::outcome).toList());
        assertTrue(outcomes.get(1).detail().contains("closing bytes"), outcomes.get(1).detail());

        // Lost while the content was still going out, unnoticed by the writes: told once the OUTCOME has said ok.
        outcomes.clear();
        var late = read(content, 0, false, Long.MAX_VALUE);
        late.lost("the connection closed");
        assertEquals(List.of(), outcomes, "nothing said ok yet");
        late.writeTo(new ByteArrayOutputStream(), OPEN, CLOSE);
        assertEquals(List.of("ok", "aborted"), outcomes.stream().map(Outcome::outcome).toList());
        assertTrue(outcomes.get(1).detail().contains("the connection closed"), outcomes.get(1).detail());

        // Broken off before the OUTCOME: the read's own OUTCOME says so, and a lost answer adds nothing.
        outcomes.clear();
        var cut = read(new byte[500_000], 0, false, Long.MAX_VALUE);
        assertThrows(IOException.class, () -> cut.writeTo(resetAfter(100_000), OPEN, CLOSE));
        cut.lost("connection reset");
        assertEquals(List.of("aborted"), outcomes.stream().map(Outcome::outcome).toList());

        // Delivered whole: nothing more.
        outcomes.clear();
        read(content, 0, false, Long.MAX_VALUE).writeTo(new ByteArrayOutputStream(), OPEN, CLOSE);
        assertEquals(List.of("ok"), outcomes.stream().map(Outcome::outcome).toList());
    }

    @Test
    void aDiscardedReadClosesItsStreamAndIsAudited() {
        var closed = new boolean[1];
        InputStream rest = new ByteArrayInputStream(new byte[10]) {
            @Override
            public void close() {
                closed[0] = true;
            }
        };
        var r = streamed(null, false, new byte[0], rest, Long.MAX_VALUE, recorded, DIGESTS);
        r.discard("refused-in-batch", -32600, "why");
        assertTrue(closed[0]);
        assertEquals("refused-in-batch", outcomes.get(0).outcome());
        assertNull(outcomes.get(0).sha256());
    }
}
