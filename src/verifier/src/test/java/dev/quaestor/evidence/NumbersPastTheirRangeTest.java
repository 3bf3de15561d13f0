package dev.quaestor.evidence;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

/**
 * A tree size or a proof's index of 19 digits that does not fit in 63 bits is refused as malformed, as any other bad
 * number is, and never ends a check in an arithmetic error.
 */
class NumbersPastTheirRangeTest {

    private static final String ROOT = "47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU=";

    @Test
    void aTreeSizeBeyondTwoToTheSixtyThreeIsABadTreeSize() {
        for (String size : new String[] {"9223372036854775808", "9999999999999999999", "-1", "01"}) {
            var refused = assertThrows(SignedNote.Refused.class,
                    () -> Checkpoint.parse("quaestor.example/log\n" + size + "\n" + ROOT + "\n", null));
            assertEquals("not a checkpoint: bad tree size " + size, refused.getMessage());
        }
    }

    @Test
    void theLargestTreeSizeIsRead() throws Exception {
        assertEquals(Long.MAX_VALUE,
                Checkpoint.parse("quaestor.example/log\n9223372036854775807\n" + ROOT + "\n", null).size());
    }

    @Test
    void aProofIndexBeyondTwoToTheSixtyThreeIsABadIndexLine() {
        for (String index : new String[] {"9223372036854775808", "9999999999999999999", "-3", "x"}) {
            String proof = RecordProof.HEADER + "\nextra AA==\nindex " + index + "\n\nquaestor.example/log\n1\n" + ROOT + "\n";
            var refused = assertThrows(IllegalArgumentException.class, () -> RecordProof.parseAll(proof));
            assertEquals("proof: bad or missing 'index' line", refused.getMessage());
        }
    }
}
