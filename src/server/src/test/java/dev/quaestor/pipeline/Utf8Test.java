package dev.quaestor.pipeline;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Random;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The byte-level UTF-8 check agrees with the JDK's strict decoder, whole and cut into pieces anywhere. */
class Utf8Test {

    /** The JDK's strict decoder (its decode(ByteBuffer) resets it before each use). */
    private static final CharsetDecoder JDK = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
            .onUnmappableCharacter(CodingErrorAction.REPORT);

    private static boolean jdk(byte[] b) {
        try {
            JDK.decode(ByteBuffer.wrap(b));
            return true;
        } catch (CharacterCodingException e) {
            return false;
        }
    }

    private static boolean inPieces(byte[] b, int cut) {
        var check = new Utf8.Check();
        return check.add(b, 0, cut) & check.add(b, cut, b.length - cut) && check.complete();
    }

    private static byte[] bytes(int... v) {
        byte[] b = new byte[v.length];
        for (int i = 0; i < v.length; i++) {
            b[i] = (byte) v[i];
        }
        return b;
    }

    /**
     * Every one- and two-byte sequence, each followed by a continuation byte; where the two bytes open a three- or
     * four-byte character (a lead byte, then a continuation byte), followed by each byte that bounds a class of UTF-8
     * bytes instead (ASCII, the continuation ranges a lead byte may restrict its second byte to, the leads); where either
     * of the two is a lead byte, also followed by two continuation bytes; and some edge cases.
     */
    @Test
    void everySequenceOfUpToTwoBytesThenEdgeBytesAndEdgeCasesAgreeWithTheJdk() {
        byte[][] edge = {
            bytes(), bytes(0x41), bytes(0xC2, 0x80), bytes(0xC1, 0xBF), bytes(0xE0, 0xA0, 0x80), bytes(0xE0, 0x9F, 0xBF),
            bytes(0xED, 0x9F, 0xBF), bytes(0xED, 0xA0, 0x80), bytes(0xEF, 0xBF, 0xBF), bytes(0xF0, 0x90, 0x80, 0x80),
            bytes(0xF0, 0x8F, 0xBF, 0xBF), bytes(0xF4, 0x8F, 0xBF, 0xBF), bytes(0xF4, 0x90, 0x80, 0x80),
            bytes(0xF5, 0x80, 0x80, 0x80), bytes(0xFF), bytes(0xFE), bytes(0x80), bytes(0xE2, 0x82), bytes(0xF0, 0x9F, 0x98),
            "plain ASCII that runs past eight bytes, then é, 漢字 and 😀 and more ASCII".getBytes(StandardCharsets.UTF_8),
        };
        for (byte[] b : edge) {
            check(b);
        }
        int[] third = {0x00, 0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC0, 0xC2, 0xE0, 0xF0, 0xF5, 0xFF};
        for (int a = 0; a < 256; a++) {
            check(bytes(a));
            for (int b = 0; b < 256; b++) {
                check(bytes(a, b));
                if (a >= 0xE0 && b >= 0x80 && b <= 0xBF) {
                    for (int c : third) {
                        check(bytes(a, b, c));
                    }
                } else {
                    check(bytes(a, b, 0x80));
                }
                if (a >= 0xC0 || b >= 0xC0) {
                    check(bytes(a, b, 0xBF, 0x80));
                }
            }
        }
    }

    @Test
    void randomTextWithAFewBadBytesAgreesWithTheJdkAndSaysWhereTheFirstIs() {
        var random = new Random(8);
        byte[] good = "ascii lines and some é 漢 😀\n".repeat(200).getBytes(StandardCharsets.UTF_8);
        assertTrue(Utf8.isValid(good));
        for (int round = 0; round < 2000; round++) {
            byte[] b = good.clone();
            int at = random.nextInt(b.length);
            b[at] = (byte) random.nextInt(256);
            check(b);
        }
        byte[] b = good.clone();
        b[1000] = (byte) 0xFF;
        var check = new Utf8.Check();
        assertFalse(check.add(b, 0, 600) && check.add(b, 600, b.length - 600));
        assertEquals(1000, check.invalidAt());
        assertFalse(check.add(good, 0, 10), "stays invalid");
    }

    private static void check(byte[] b) {
        boolean expected = jdk(b);
        assertEquals(expected, Utf8.isValid(b), () -> java.util.HexFormat.of().formatHex(b));
        for (int cut = 0; cut <= b.length; cut += Math.max(1, b.length / 7)) {
            int at = cut;
            assertEquals(expected, inPieces(b, at), () -> java.util.HexFormat.of().formatHex(b) + " cut at " + at);
        }
    }
}
