package dev.quaestor.uri;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class UriCanonicalizerTest {

    @ParameterizedTest
    @CsvSource({
            "file:///docs/a.md, file:///docs/a.md",
            "FILE:///docs/a.md, file:///docs/a.md",
            "Git://HandBook/main/README.md, git://handbook/main/README.md",
            "file:///docs//a///b.md, file:///docs/a/b.md",
            "file:///docs/./a/../b.md, file:///docs/b.md",
            "file:///docs/%61.md, file:///docs/a.md",
            "file:///docs/%2e%2e/x, file:///x",
            "file:///docs/a%20b.md, file:///docs/a%20b.md",
            "file:///docs/caf%C3%A9, file:///docs/caf%C3%A9",
            "file:///docs/cafe%CC%81, file:///docs/caf%C3%A9",
            "test://static-text, test://static-text",
            "file:///docs/, file:///docs",
            "file:///docs/%252e%252e/x, file:///docs/%252e%252e/x",
    })
    void canonicalForms(String raw, String expected) {
        assertEquals(expected, UriCanonicalizer.canonicalize(raw).toString());
        // Canonical form is a fixed point.
        assertEquals(expected, UriCanonicalizer.canonicalize(expected).toString());
    }

    @ParameterizedTest
    @ValueSource(strings = {
            "", "docs/a.md", "file:/docs/a.md", "1file:///a", "file:///../etc/passwd", "file:///docs/../../etc",
            "file:///docs/%2fetc", "file:///docs/%2Fetc", "file:///docs/%5cetc", "file:///docs/a\\b", "file:///docs/%00",
            "file:///docs/a%00.md", "file:///docs/%", "file:///docs/%zz", "file:///docs/%C0%AE%C0%AE/x", "file:///docs/%E0%80%AE",
            "file:///docs/%FF", "file:///docs/a.md.", "file:///docs/a.md%20", "file:///docs/a.md?x=1", "file:///docs/a.md#frag",
            "file:///docs/a b", "file:///docs/\u0001", "file:///docs/%E2%80%8B", "file://user@host/x", "file://ho%73t/x",
            "file:///docs/%EF%BF%BD"
    })
    void hostileFormsAreRefused(String raw) {
        assertThrows(InvalidUriException.class, () -> UriCanonicalizer.canonicalize(raw));
    }

    /**
     * A lone UTF-16 surrogate (raw, first or last, high or low) or a non-character (raw or percent-encoded) has no
     * canonical form: refused here, before the policy engine or a provider could see a substitute for it.
     */
    @ParameterizedTest
    @ValueSource(strings = {
            "file:///docs/a\uD800b", "file:///docs/a\uDC00b", "file:///docs/\uD800", "file:///docs/a\uDC00\uD800b",
            "file:///docs/%ED%A0%80", "file:///docs/%ED%B0%80", "file:///docs/a\uFFFE", "file:///docs/a\uFFFF",
            "file:///docs/\uFDD0", "file:///docs/%EF%BF%BE", "file:///docs/%EF%B7%90", "file:///docs/\uD83F\uDFFF",
            "file:///docs/%F4%8F%BF%BF", "file:///docs/caf\u00e9/\uD800"
    })
    void loneSurrogatesAndNonCharactersAreRefusedNotSubstituted(String raw) {
        var e = assertThrows(InvalidUriException.class, () -> UriCanonicalizer.canonicalize(raw), raw);
        assertTrue(e.getMessage().contains("surrogate") || e.getMessage().contains("non-character")
                || e.getMessage().contains("UTF-8"), e.getMessage());
    }

    /** Characters beyond the BMP, as a proper surrogate pair or percent-encoded, are characters like any other. */
    @ParameterizedTest
    @CsvSource({
            "file:///docs/\uD83D\uDE00.md, file:///docs/%F0%9F%98%80.md",
            "file:///docs/%F0%9F%98%80.md, file:///docs/%F0%9F%98%80.md",
            "file:///docs/\uFFFD\uFFFC, ",
    })
    void pairedSurrogatesAreOneCharacter(String raw, String expected) {
        if (expected == null) {
            // U+FFFD is refused (it stands for something lost), U+FFFC is an ordinary character.
            assertThrows(InvalidUriException.class, () -> UriCanonicalizer.canonicalize(raw));
            return;
        }
        assertEquals(expected, UriCanonicalizer.canonicalize(raw).toString());
    }
}
