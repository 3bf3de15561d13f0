package dev.quaestor.uri;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class UriTemplateTest {

    // RFC 6570 section 1.2, levels 1 and 2, with its example values.
    static final Map<String, String> RFC = Map.of("var", "value", "hello", "Hello World!", "path", "/foo/bar");

    @Test
    void expandsLevelOneAndTwoAsTheRfcSays() {
        assertEquals("value", UriTemplate.parse("{var}").expand(RFC));
        assertEquals("Hello%20World%21", UriTemplate.parse("{hello}").expand(RFC));
        assertEquals("value", UriTemplate.parse("{+var}").expand(RFC));
        assertEquals("Hello%20World!", UriTemplate.parse("{+hello}").expand(RFC));
        assertEquals("/foo/bar/here", UriTemplate.parse("{+path}/here").expand(RFC));
        assertEquals("X#value", UriTemplate.parse("X{#var}").expand(RFC));
        assertEquals("X#Hello%20World!", UriTemplate.parse("X{#hello}").expand(RFC));
        assertEquals("X", UriTemplate.parse("X{#undefined}").expand(RFC));
        assertEquals("a%2Fb", UriTemplate.parse("{x}").expand(Map.of("x", "a/b")));
        assertEquals("caf%C3%A9", UriTemplate.parse("{x}").expand(Map.of("x", "café")));
        assertEquals("50%25", UriTemplate.parse("{x}").expand(Map.of("x", "50%")));
        assertEquals("50%25%252", UriTemplate.parse("{+x}").expand(Map.of("x", "50%25%2")));
    }

    @Test
    void matchesUrisBackToDecodedValues() {
        var t = UriTemplate.parse("git://handbook/{ref}/{+path}");
        assertEquals(List.of("ref", "path"), t.variables());
        assertEquals("git://handbook/", t.literalPrefix());
        assertEquals(Optional.of(Map.of("ref", "main", "path", "docs/a b.md")), t.match("git://handbook/main/docs/a%20b.md"));
        assertEquals(Optional.empty(), t.match("git://handbook/main"));
        assertEquals(Optional.empty(), t.match("git://other/main/x"));
        assertEquals(Optional.empty(), t.match("git://handbook/main/%ZZ"), "malformed percent-encoding");
        assertEquals(Optional.empty(), t.match("git://handbook/main/%C3"), "not UTF-8");
        var one = UriTemplate.parse("db://records/patients/{id}");
        assertEquals(Optional.empty(), one.match("db://records/patients/1/2"), "{id} stays within one segment");
        assertEquals(Optional.of(Map.of("id", "1' OR '1'='1")), one.match(UriCanonicalizer.canonicalize(
                one.expand(Map.of("id", "1' OR '1'='1")))));
        var csv = UriTemplate.parse("db://records/wards/{ward}/patients.csv");
        assertEquals(Optional.of(Map.of("ward", "north")), csv.match("db://records/wards/north/patients.csv"));
        assertEquals(Optional.empty(), csv.match("db://records/wards/north/patients.json"));
    }

    @Test
    void expansionAndMatchRoundTrip() {
        var t = UriTemplate.parse("x://m/{a}/{+b}");
        for (var values : List.of(Map.of("a", "release:2.x", "b", "dir/file name.txt"), Map.of("a", "ü", "b", "ß/€"))) {
            assertEquals(Optional.of(values), t.match(UriCanonicalizer.canonicalize(t.expand(values))));
        }
    }

    @Test
    void refusesWhatIsNotLevelOneOrTwo() {
        for (String bad : List.of("x://{a,b}", "x://{/a}", "x://{.a}", "x://{;a}", "x://{?a}", "x://{&a}", "x://{a*}",
                "x://{a:3}", "x://{}", "x://{a", "x://a}", "x://{a}{b}", "x://{a}/{a}", "", "x://a?q={a}")) {
            var e = assertThrows(IllegalArgumentException.class, () -> UriTemplate.parse(bad), bad);
            assertTrue(!e.getMessage().isEmpty());
        }
    }
}
