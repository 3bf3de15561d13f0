package dev.quaestor.uri;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

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
}
