package dev.quaestor.audit.record;

import java.security.SecureRandom;
import java.util.UUID;

/**
 * Request ids: the id a client sees in {@code data.requestId} and {@code X-Request-Id}, and the
 * audit log's {@code request_id}. They are time-ordered UUIDs (version 7, RFC 9562): 48 bits of
 * Unix milliseconds, then 74 random bits. Random (version 4) ids would land anywhere in the
 * {@code request_id} index, so once that index outgrows the database's memory every record
 * inserted reads and dirties a random page of it; time-ordered ids are appended at its right edge,
 * so inserting stays as cheap in year three as on day one. They also sort in the order they were
 * issued, and the 74 random bits keep them unique and unguessable.
 */
public final class RequestIds {

    // One generator per thread: a shared SecureRandom serialises every caller on its lock.
    private static final ThreadLocal<SecureRandom> RANDOM = ThreadLocal.withInitial(SecureRandom::new);

    private RequestIds() {
    }

    /** A new request id, in the usual 36-character UUID form. */
    public static String next() {
        return at(System.currentTimeMillis()).toString();
    }

    /** A version 7 UUID for the millisecond {@code epochMillis}. */
    static UUID at(long epochMillis) {
        // The 74 random bits from one draw: each draw of the platform's generator takes its lock and mixes its state.
        byte[] b = new byte[10];
        RANDOM.get().nextBytes(b);
        long randA = (b[0] & 0xffL) << 4 | (b[1] & 0x0fL);
        long randB = 0;
        for (int i = 2; i < 10; i++) {
            randB = randB << 8 | (b[i] & 0xffL);
        }
        randB &= 0x3fffffffffffffffL;
        long msb = (epochMillis & 0xffffffffffffL) << 16 | 0x7000L | randA;
        long lsb = 0x8000000000000000L | randB; // variant 10
        return new UUID(msb, lsb);
    }
}
