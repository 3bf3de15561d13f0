package dev.quaestor.pipeline;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

/** Whether bytes are well-formed UTF-8, by the JDK's decoder; text that is all ASCII is passed at a glance. */
final class Utf8 {

    private Utf8() {
    }

    static boolean isValid(byte[] b) {
        int i = 0;
        while (i < b.length && b[i] >= 0) {
            i++;
        }
        if (i == b.length) {
            return true;
        }
        try {
            StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(b, i, b.length - i));
            return true;
        } catch (CharacterCodingException e) {
            return false;
        }
    }
}
