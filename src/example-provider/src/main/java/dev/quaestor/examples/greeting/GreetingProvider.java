package dev.quaestor.examples.greeting;

import dev.quaestor.provider.InvalidCursorException;
import dev.quaestor.provider.Mount;
import dev.quaestor.provider.Page;
import dev.quaestor.provider.ResourceContent;
import dev.quaestor.provider.ResourceEntry;
import dev.quaestor.provider.ResourceNotFoundException;
import dev.quaestor.provider.ResourceProvider;
import dev.quaestor.provider.TemplateEntry;
import dev.quaestor.uri.CanonicalUri;
import dev.quaestor.uri.UriCanonicalizer;
import dev.quaestor.uri.UriTemplate;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * One greeting per configured name: {@code <prefix>/{name}} reads as "Hello, name!" (or the
 * configured {@code options.salutation}). Names come from {@code options.names} (comma-separated);
 * a name that is not configured is not found, whatever the URI.
 */
final class GreetingProvider implements ResourceProvider {

    private final UriTemplate template;
    private final List<String> names;
    private final String salutation;

    GreetingProvider(Mount mount) {
        this.template = UriTemplate.parse(mount.prefix() + "/{name}");
        var list = new ArrayList<String>();
        for (String n : mount.requireSetting("names").split(",")) {
            String name = n.trim();
            if (name.isEmpty() || !name.matches("[A-Za-z0-9_-]+")) {
                throw new IllegalArgumentException("mount '" + mount.name() + "': " + mount.propertyName("names")
                        + " must list names of letters, digits, '-' and '_', not '" + n + "'");
            }
            list.add(name);
        }
        this.names = List.copyOf(list);
        this.salutation = mount.setting("salutation").orElse("Hello");
    }

    @Override
    public Page<ResourceEntry> list(String cursor, int limit) {
        int from = cursor == null ? 0 : parseCursor(cursor);
        int to = Math.min(names.size(), from + limit);
        var items = names.subList(from, to).stream().map(n -> entry(uriOf(n), n, null)).toList();
        return new Page<>(items, to < names.size() ? Integer.toString(to) : null);
    }

    @Override
    public ResourceContent read(CanonicalUri uri) {
        String name = template.match(uri.toString()).map(v -> v.get("name")).filter(names::contains)
                .orElseThrow(() -> new ResourceNotFoundException(uri.toString()));
        byte[] bytes = (salutation + ", " + name + "!").getBytes(StandardCharsets.UTF_8);
        return ResourceContent.of(entry(uri, name, (long) bytes.length), bytes, true);
    }

    @Override
    public List<TemplateEntry> templates() {
        return List.of(TemplateEntry.of(template, "greeting", "A greeting", "A greeting for one of the configured names",
                "text/plain"));
    }

    private CanonicalUri uriOf(String name) {
        return UriCanonicalizer.canonicalize(template.expand(Map.of("name", name)));
    }

    private static ResourceEntry entry(CanonicalUri uri, String name, Long size) {
        return new ResourceEntry(uri, name, "Greeting for " + name, null, "text/plain", size, null);
    }

    private int parseCursor(String cursor) {
        try {
            int i = Integer.parseInt(cursor);
            if (i > 0 && i < names.size()) {
                return i;
            }
        } catch (NumberFormatException e) {
            // fall through
        }
        throw new InvalidCursorException();
    }
}
