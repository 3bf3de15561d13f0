package dev.quaestor.pipeline;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.quaestor.provider.ContentTooLargeException;
import dev.quaestor.provider.ResourceContent;
import dev.quaestor.provider.ResourceEntry;
import dev.quaestor.uri.UriCanonicalizer;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Large content its provider calls text goes out as text only if every byte was read and found UTF-8 first. */
class TextCheckTest {

    private static final int HOLD = 1024;
    private static final ResourceEntry ENTRY =
            new ResourceEntry(UriCanonicalizer.canonicalize("file:///x"), "x", null, null, "text/plain", null, null);

    /** Streams handed out by the content's opener, in order, and whether each was closed. */
    private final List<Tracked> streams = new ArrayList<>();

    private final class Tracked extends ByteArrayInputStream {
        boolean closed;
        long read;

        Tracked(byte[] b) {
            super(b);
            streams.add(this);
        }

        @Override
        public synchronized int read(byte[] b, int off, int len) {
            int n = super.read(b, off, len);
            read += Math.max(n, 0);
            return n;
        }

        @Override
        public void close() {
            closed = true;
        }
    }

    /** At least {@code bytes} bytes of UTF-8 lines, some characters of two and three bytes. */
    private static byte[] lines(int bytes) {
        return "some text, é and 漢字\n".repeat(bytes / 20 + 1).getBytes(StandardCharsets.UTF_8);
    }

    private OpenedContent opened(ResourceContent content, long maxBytes) throws IOException {
        return TextCheck.settle(OpenedContent.open(content, HOLD, Long.MAX_VALUE, new ArrayList<>()), maxBytes);
    }

    private static byte[] all(OpenedContent c) throws IOException {
        var out = new ByteArrayOutputStream();
        out.write(c.head());
        try (InputStream rest = c.rest()) {
            rest.transferTo(out);
        }
        return out.toByteArray();
    }

    @Test
    void textThatIsUtf8ThroughoutGoesAsTextFromTheSecondStream() throws IOException {
        byte[] bytes = lines(500_000);
        var c = opened(ResourceContent.rereadable(ENTRY, true, bytes.length, () -> new Tracked(bytes)), Long.MAX_VALUE);
        assertTrue(c.text());
        assertEquals(2, streams.size());
        assertTrue(streams.get(0).closed, "the checked stream is closed");
        assertEquals(bytes.length, streams.get(0).read, "and was read to its end");
        assertSame(streams.get(1), c.rest(), "the second is sent");
        assertArrayEquals(bytes, all(c));
    }

    @Test
    void aBytePastTheHeldPartThatIsNotUtf8MakesItABlobOfTheSameBytesAndEndsTheCheckThere() throws IOException {
        byte[] bytes = lines(3_000_000);
        bytes[2_000_000] = (byte) 0xFF;
        var c = opened(ResourceContent.rereadable(ENTRY, true, bytes.length, () -> new Tracked(bytes)), Long.MAX_VALUE);
        assertFalse(c.text());
        assertTrue(streams.get(0).read < 2_500_000, "the check stops at the first byte that is not UTF-8");
        assertTrue(streams.get(0).closed);
        assertArrayEquals(bytes, all(c));
    }

    @Test
    void aLastCharacterCutShortMakesItABlob() throws IOException {
        byte[] whole = (new String(lines(100_000), StandardCharsets.UTF_8) + "漢").getBytes(StandardCharsets.UTF_8);
        byte[] bytes = java.util.Arrays.copyOf(whole, whole.length - 1);
        assertFalse(opened(ResourceContent.rereadable(ENTRY, true, bytes.length, () -> new Tracked(bytes)),
                Long.MAX_VALUE).text());
    }

    @Test
    void contentThatCanBeReadOnlyOnceGoesAsABlobWithoutAnExtraRead() throws IOException {
        byte[] bytes = lines(500_000);
        var c = opened(ResourceContent.streamed(ENTRY, true, bytes.length, () -> new Tracked(bytes)), Long.MAX_VALUE);
        assertFalse(c.text());
        assertEquals(1, streams.size(), "opened once");
        assertArrayEquals(bytes, all(c));
    }

    @Test
    void binaryAndHeldContentAreLeftAsTheyAre() throws IOException {
        byte[] bytes = lines(500_000);
        var binary = opened(ResourceContent.rereadable(ENTRY, false, bytes.length, () -> new Tracked(bytes)), Long.MAX_VALUE);
        assertFalse(binary.text());
        assertEquals(1, streams.size(), "binary content is opened once");
        byte[] small = "small text".getBytes(StandardCharsets.US_ASCII);
        var held = opened(ResourceContent.rereadable(ENTRY, true, small.length, () -> new Tracked(small)), Long.MAX_VALUE);
        assertTrue(held.complete());
        assertTrue(held.text());
    }

    @Test
    void contentPastMaxBytesIsRefusedBeforeAnythingIsSent() throws IOException {
        byte[] bytes = lines(500_000);
        var c = OpenedContent.open(ResourceContent.rereadable(ENTRY, true, ResourceContent.UNKNOWN_LENGTH,
                () -> new Tracked(bytes)), HOLD, Long.MAX_VALUE, new ArrayList<>());
        assertThrows(ContentTooLargeException.class, () -> TextCheck.settle(c, 400_000));
        assertTrue(streams.get(0).closed);
    }
}
