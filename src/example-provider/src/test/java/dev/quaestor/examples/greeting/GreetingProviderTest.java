package dev.quaestor.examples.greeting;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.quaestor.provider.InvalidCursorException;
import dev.quaestor.provider.Mount;
import dev.quaestor.provider.ResourceNotFoundException;
import dev.quaestor.provider.ResourceProvider;
import dev.quaestor.uri.UriCanonicalizer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The provider on its own, as its author tests it: no server, no CDI container. */
class GreetingProviderTest {

    private static ResourceProvider provider(Map<String, String> settings) {
        var mount = new Mount("hello", "greeting", UriCanonicalizer.canonicalize("hello://greetings/"),
                "hello://greetings/", settings);
        return new GreetingProviderFactory().create(mount);
    }

    private static String read(ResourceProvider p, String uri) {
        return new String(p.read(UriCanonicalizer.canonicalize(uri)).bytes(), StandardCharsets.UTF_8);
    }

    @Test
    void readsAGreetingForAConfiguredName() {
        var p = provider(Map.of("names", "ada, grace"));
        assertEquals("Hello, ada!", read(p, "hello://greetings/ada"));
        var content = p.read(UriCanonicalizer.canonicalize("hello://greetings/grace"));
        assertTrue(content.text());
        assertEquals("text/plain", content.entry().mimeType());
        assertEquals(13L, content.entry().size());
        assertEquals("Bonjour, ada!", read(provider(Map.of("names", "ada", "salutation", "Bonjour")), "hello://greetings/ada"));
    }

    @Test
    void namesNotConfiguredAreNotFound() {
        var p = provider(Map.of("names", "ada"));
        for (String uri : List.of("hello://greetings/bob", "hello://greetings/ada/more", "hello://greetings/")) {
            assertThrows(ResourceNotFoundException.class, () -> p.read(UriCanonicalizer.canonicalize(uri)), uri);
        }
    }

    @Test
    void listsInPagesWithACursor() {
        var p = provider(Map.of("names", "a,b,c,d,e"));
        var uris = new ArrayList<String>();
        String cursor = null;
        int pages = 0;
        do {
            var page = p.list(cursor, 2);
            page.items().forEach(e -> uris.add(e.uri().toString()));
            cursor = page.nextCursor();
            pages++;
        } while (cursor != null);
        assertEquals(3, pages);
        assertEquals(List.of("hello://greetings/a", "hello://greetings/b", "hello://greetings/c", "hello://greetings/d",
                "hello://greetings/e"), uris);
        assertNull(p.list(null, 10).nextCursor());
        assertThrows(InvalidCursorException.class, () -> p.list("not-a-cursor", 2));
        assertThrows(InvalidCursorException.class, () -> p.list("99", 2));
    }

    @Test
    void offersOneTemplate() {
        var t = provider(Map.of("names", "ada")).templates();
        assertEquals(1, t.size());
        assertEquals("hello://greetings/{name}", t.get(0).uriTemplate());
    }

    @Test
    void badSettingsAreRefusedWithTheKey() {
        var missing = assertThrows(IllegalArgumentException.class, () -> provider(Map.of()));
        assertTrue(missing.getMessage().contains("quaestor.mounts.hello.options.names"), missing.getMessage());
        var bad = assertThrows(IllegalArgumentException.class, () -> provider(Map.of("names", "ada,../x")));
        assertTrue(bad.getMessage().contains("'../x'"), bad.getMessage());
    }
}
