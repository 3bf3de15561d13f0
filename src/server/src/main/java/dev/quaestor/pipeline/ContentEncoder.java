package dev.quaestor.pipeline;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Base64;

/**
 * Turns content bytes, chunk by chunk, into the characters of a JSON string value as MCP sends
 * them: base64 for a {@code blob}, or JSON-escaped UTF-8 for {@code text}. Holds at most a few
 * bytes between chunks, so content of any size passes through in constant memory.
 */
abstract class ContentEncoder {

    /** Encodes {@code len} bytes of {@code chunk} to {@code out}. */
    abstract void write(byte[] chunk, int len, OutputStream out) throws IOException;

    /** Writes what is held back; the value is complete after this. */
    abstract void finish(OutputStream out) throws IOException;

    static ContentEncoder forContent(boolean text) {
        return text ? new JsonText() : new Base64Blob();
    }

    /** Standard base64 with padding, exactly as {@code Base64.getEncoder()} encodes the whole content. */
    static final class Base64Blob extends ContentEncoder {
        private static final Base64.Encoder ENCODER = Base64.getEncoder();
        private final byte[] carry = new byte[2];
        private int carried;
        private byte[] encoded = new byte[0];

        @Override
        void write(byte[] chunk, int len, OutputStream out) throws IOException {
            int total = carried + len;
            int whole = total - total % 3;
            if (whole > 0) {
                byte[] src;
                if (carried == 0 && whole == chunk.length) {
                    src = chunk; // the usual case: a full read buffer, sized to a multiple of 3
                } else {
                    src = new byte[whole];
                    System.arraycopy(carry, 0, src, 0, carried);
                    System.arraycopy(chunk, 0, src, carried, whole - carried);
                }
                if (encoded.length < whole / 3 * 4) {
                    encoded = new byte[whole / 3 * 4];
                }
                int n = ENCODER.encode(src, encoded);
                out.write(encoded, 0, n);
            }
            // Keep the 0-2 bytes that do not fill a 3-byte group.
            int keep = total - whole;
            for (int i = 0; i < keep; i++) {
                int from = whole + i;
                carry[i] = from < carried ? carry[from] : chunk[from - carried];
            }
            carried = keep;
        }

        @Override
        void finish(OutputStream out) throws IOException {
            if (carried > 0) {
                out.write(ENCODER.encode(java.util.Arrays.copyOf(carry, carried)));
                carried = 0;
            }
        }
    }

    /**
     * UTF-8 text as the body of a JSON string: {@code "}, {@code \} and control characters escaped,
     * everything else (including non-ASCII) passed through as UTF-8, which JSON allows. The bytes
     * are validated as UTF-8 across chunk boundaries; invalid input fails the write, since a text
     * value cannot carry it unchanged.
     */
    static final class JsonText extends ContentEncoder {
        private static final byte[] HEX = "0123456789abcdef".getBytes(StandardCharsets.US_ASCII);
        private final CharsetDecoder decoder = StandardCharsets.UTF_8.newDecoder()
                .onMalformedInput(CodingErrorAction.REPORT).onUnmappableCharacter(CodingErrorAction.REPORT);
        private final CharBuffer scratch = CharBuffer.allocate(8192);
        private final ByteBuffer pending = ByteBuffer.allocate(4);
        private byte[] escaped = new byte[0];

        @Override
        void write(byte[] chunk, int len, OutputStream out) throws IOException {
            validate(chunk, len);
            if (escaped.length < len * 6) {
                escaped = new byte[len * 6];
            }
            int n = 0;
            for (int i = 0; i < len; i++) {
                byte b = chunk[i];
                if (b == '"' || b == '\\') {
                    escaped[n++] = '\\';
                    escaped[n++] = b;
                } else if (b >= 0 && b < 0x20) {
                    escaped[n++] = '\\';
                    switch (b) {
                        case '\n' -> escaped[n++] = 'n';
                        case '\r' -> escaped[n++] = 'r';
                        case '\t' -> escaped[n++] = 't';
                        case '\b' -> escaped[n++] = 'b';
                        case '\f' -> escaped[n++] = 'f';
                        default -> {
                            escaped[n++] = 'u';
                            escaped[n++] = '0';
                            escaped[n++] = '0';
                            escaped[n++] = HEX[b >> 4];
                            escaped[n++] = HEX[b & 0xf];
                        }
                    }
                } else {
                    escaped[n++] = b;
                }
            }
            out.write(escaped, 0, n);
        }

        /** Decodes (and discards) the chunk, carrying an incomplete last character to the next one. */
        private void validate(byte[] chunk, int len) throws CharacterCodingException {
            int off = 0;
            // First complete a character left over from the previous chunk, byte by byte.
            while (pending.position() > 0 && off < len) {
                pending.put(chunk[off++]);
                pending.flip();
                decode(pending, false);
                pending.compact();
                if (pending.position() == 4) {
                    throw new CharacterCodingException();
                }
            }
            ByteBuffer in = ByteBuffer.wrap(chunk, off, len - off);
            decode(in, false);
            if (in.remaining() > 3) {
                throw new CharacterCodingException();
            }
            pending.put(in);
        }

        private void decode(ByteBuffer in, boolean end) throws CharacterCodingException {
            while (true) {
                scratch.clear();
                var result = decoder.decode(in, scratch, end);
                if (result.isError()) {
                    result.throwException();
                }
                if (result.isUnderflow()) {
                    return;
                }
            }
        }

        @Override
        void finish(OutputStream out) throws IOException {
            pending.flip();
            decode(pending, true);
            scratch.clear();
            if (decoder.flush(scratch).isError() || pending.hasRemaining()) {
                throw new CharacterCodingException();
            }
        }
    }
}
