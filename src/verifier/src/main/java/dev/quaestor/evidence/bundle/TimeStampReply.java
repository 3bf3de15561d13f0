package dev.quaestor.evidence.bundle;

import java.io.ByteArrayOutputStream;
import java.util.Arrays;

/**
 * A checkpoint's time-stamp token as a file of its own (docs/audit-format.md, section 7): an RFC 3161
 * {@code TimeStampResp} whose status is {@code granted} (0) and whose token is the one on the checkpoint's
 * time-stamp line, DER-encoded, so that {@code openssl ts -verify -in FILE.tsr} reads it as the TSA's answer.
 */
public final class TimeStampReply {

    /** {@code PKIStatusInfo ::= SEQUENCE { status INTEGER 0 }}: granted. */
    private static final byte[] GRANTED = {0x30, 0x03, 0x02, 0x01, 0x00};

    private TimeStampReply() {
    }

    /** The reply that carries {@code token}. */
    public static byte[] of(byte[] token) {
        var body = new ByteArrayOutputStream();
        body.writeBytes(GRANTED);
        body.writeBytes(token);
        var out = new ByteArrayOutputStream();
        out.write(0x30);
        length(body.size(), out);
        out.writeBytes(body.toByteArray());
        return out.toByteArray();
    }

    /** The token a reply carries; null if {@code reply} is not exactly {@link #of} of a token. */
    public static byte[] token(byte[] reply) {
        if (reply.length < 2 + GRANTED.length || reply[0] != 0x30) {
            return null;
        }
        int headerLength = 2;
        int first = reply[1] & 0xff;
        if (first > 0x80) {
            headerLength += first - 0x80;
        }
        int start = headerLength + GRANTED.length;
        if (start > reply.length || !Arrays.equals(reply, headerLength, start, GRANTED, 0, GRANTED.length)) {
            return null;
        }
        byte[] token = Arrays.copyOfRange(reply, start, reply.length);
        return Arrays.equals(of(token), reply) ? token : null;
    }

    private static void length(int n, ByteArrayOutputStream out) {
        if (n < 0x80) {
            out.write(n);
            return;
        }
        int bytes = n < 0x100 ? 1 : n < 0x10000 ? 2 : n < 0x1000000 ? 3 : 4;
        out.write(0x80 | bytes);
        for (int i = bytes - 1; i >= 0; i--) {
            out.write(n >>> (8 * i));
        }
    }
}
