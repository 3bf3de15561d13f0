package dev.quaestor.identity;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.HashSet;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

class TokenFingerprintTest {

    private static TokenFingerprint sha256(String s) throws Exception {
        var d = ByteBuffer.wrap(MessageDigest.getInstance("SHA-256").digest(s.getBytes(StandardCharsets.UTF_8)));
        return new TokenFingerprint(d.getLong(), d.getLong(), d.getLong(), d.getLong());
    }

    @Test
    void isTheSha256OfTheCredentialInFourBigEndianLongs() throws Exception {
        for (String s : new String[] {"", "a", "eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJhbGljZSJ9.c2ln", "Bearer ä€"}) {
            assertEquals(sha256(s), TokenFingerprint.of(s), s);
            assertEquals(TokenFingerprint.of(s), TokenFingerprint.of(s), "the digest is reset between uses: " + s);
        }
        assertEquals(new TokenFingerprint(0xe3b0c44298fc1c14L, 0x9afbf4c8996fb924L, 0x27ae41e4649b934cL, 0xa495991b7852b855L),
                TokenFingerprint.of(""), "SHA-256 of the empty string");
        assertNotEquals(TokenFingerprint.of("token-a"), TokenFingerprint.of("token-b"));
    }

    @Test
    void threadsDoNotShareADigest() throws Exception {
        var pool = Executors.newFixedThreadPool(4);
        try {
            var results = new java.util.ArrayList<Future<Boolean>>();
            for (int t = 0; t < 4; t++) {
                int id = t;
                results.add(pool.submit(() -> {
                    for (int i = 0; i < 2_000; i++) {
                        String s = "token-" + id + "-" + i;
                        if (!TokenFingerprint.of(s).equals(sha256(s))) {
                            return false;
                        }
                    }
                    return true;
                }));
            }
            var outcomes = new HashSet<Boolean>();
            for (var r : results) {
                outcomes.add(r.get());
            }
            assertEquals(java.util.Set.of(true), outcomes);
        } finally {
            pool.shutdownNow();
        }
    }
}
