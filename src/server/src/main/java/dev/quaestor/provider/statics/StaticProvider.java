package dev.quaestor.provider.statics;

import com.fasterxml.jackson.core.io.JsonStringEncoder;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.core.StreamReadFeature;
import dev.quaestor.provider.InvalidCursorException;
import dev.quaestor.provider.MimeTypes;
import dev.quaestor.provider.Mount;
import dev.quaestor.provider.Page;
import dev.quaestor.provider.ResourceContent;
import dev.quaestor.provider.ResourceEntry;
import dev.quaestor.provider.ResourceNotFoundException;
import dev.quaestor.provider.ResourceProvider;
import dev.quaestor.provider.TemplateEntry;
import dev.quaestor.uri.CanonicalUri;
import dev.quaestor.uri.InvalidUriException;
import dev.quaestor.uri.UriCanonicalizer;
import dev.quaestor.uri.UriTemplate;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Serves resources declared in a YAML catalogue, loaded once at start-up. */
final class StaticProvider implements ResourceProvider {

    private record Fixed(ResourceEntry entry, byte[] bytes, boolean text) {
    }

    private record CompiledTemplate(TemplateEntry entry, UriTemplate template, String text) {
    }

    private final Map<String, Fixed> byUri;   // canonical string -> resource, in file order
    private final List<CompiledTemplate> templates;

    private StaticProvider(Map<String, Fixed> byUri, List<CompiledTemplate> templates) {
        this.byUri = byUri;
        this.templates = templates;
    }

    static StaticProvider load(Mount mount) {
        Path file = Path.of(mount.requireSetting("file"));
        StaticCatalog catalog;
        try {
            var mapper = new ObjectMapper(YAMLFactory.builder().enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION).build())
                    .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);
            catalog = mapper.readValue(file.toFile(), StaticCatalog.class);
        } catch (IOException e) {
            throw new IllegalArgumentException("mount '" + mount.name() + "': cannot read " + file + ": " + e.getMessage());
        }
        var byUri = new LinkedHashMap<String, Fixed>();
        for (StaticCatalog.Item item : catalog.resources()) {
            CanonicalUri uri = canonical(mount, item.uri());
            if ((item.text() == null) == (item.blob() == null)) {
                throw new IllegalArgumentException("mount '" + mount.name() + "': " + item.uri() + " needs exactly one of text or blob");
            }
            boolean text = item.text() != null;
            byte[] bytes = text ? item.text().getBytes(StandardCharsets.UTF_8) : Base64.getDecoder().decode(item.blob());
            String mime = item.mimeType() != null ? item.mimeType() : text ? "text/plain" : MimeTypes.OCTET_STREAM;
            String name = item.name() != null ? item.name() : uri.toString();
            var entry = new ResourceEntry(uri, name, item.title(), item.description(), mime, (long) bytes.length, null,
                    annotations(mount, item.uri(), item.annotations()));
            if (byUri.put(uri.toString(), new Fixed(entry, bytes, text)) != null) {
                throw new IllegalArgumentException("mount '" + mount.name() + "': duplicate resource " + uri);
            }
        }
        var compiled = new ArrayList<CompiledTemplate>();
        for (StaticCatalog.Template t : catalog.templates()) {
            compiled.add(compile(mount, t));
        }
        return new StaticProvider(byUri, compiled);
    }

    private static CanonicalUri canonical(Mount mount, String uri) {
        CanonicalUri c;
        try {
            c = UriCanonicalizer.canonicalize(uri);
        } catch (InvalidUriException e) {
            throw new IllegalArgumentException("mount '" + mount.name() + "': " + uri + ": " + e.getMessage());
        }
        if (!c.isWithin(mount.prefix())) {
            throw new IllegalArgumentException("mount '" + mount.name() + "': " + uri + " is outside " + mount.prefixText());
        }
        return c;
    }

    /** Level-1/2 templates: {var} matches within one segment, {+var} across segments. */
    private static CompiledTemplate compile(Mount mount, StaticCatalog.Template t) {
        UriTemplate template;
        try {
            template = UriTemplate.parse(t.uriTemplate());
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("mount '" + mount.name() + "': " + e.getMessage());
        }
        String literalPrefix = template.literalPrefix();
        if (!literalPrefix.startsWith(mount.prefixText()) && !literalPrefix.startsWith(mount.prefix().toString())) {
            throw new IllegalArgumentException("mount '" + mount.name() + "': template " + t.uriTemplate() + " is outside " + mount.prefixText());
        }
        var entry = new TemplateEntry(template.text(), t.name() != null ? t.name() : t.uriTemplate(), t.title(),
                t.description(), t.mimeType(), annotations(mount, t.uriTemplate(), t.annotations()));
        return new CompiledTemplate(entry, template, t.text());
    }

    @Override
    public Page<ResourceEntry> list(String cursor, int limit) {
        var all = new ArrayList<>(byUri.values());
        int start = 0;
        if (cursor != null) {
            try {
                start = Integer.parseInt(cursor);
            } catch (NumberFormatException e) {
                throw new InvalidCursorException();
            }
            if (start < 0 || start > all.size()) {
                throw new InvalidCursorException();
            }
        }
        int end = Math.min(all.size(), start + limit);
        var items = all.subList(start, end).stream().map(Fixed::entry).toList();
        return new Page<>(items, end < all.size() ? Integer.toString(end) : null);
    }

    @Override
    public ResourceContent read(CanonicalUri uri) {
        String key = uri.toString();
        Fixed fixed = byUri.get(key);
        if (fixed != null) {
            return new ResourceContent(fixed.entry(), fixed.bytes(), fixed.text());
        }
        for (CompiledTemplate t : templates) {
            var values = t.template().match(key);
            if (values.isPresent()) {
                return expand(uri, t, values.get());
            }
        }
        throw new ResourceNotFoundException(key);
    }

    private static ResourceContent expand(CanonicalUri uri, CompiledTemplate t, Map<String, String> values) {
        boolean json = t.entry().mimeType() != null && t.entry().mimeType().contains("json");
        String text = t.text();
        for (var v : values.entrySet()) {
            String value = v.getValue();
            if (json) {
                value = new String(JsonStringEncoder.getInstance().quoteAsString(value));
            }
            text = text.replace("{" + v.getKey() + "}", value);
        }
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        String mime = t.entry().mimeType() != null ? t.entry().mimeType() : "text/plain";
        var entry = new ResourceEntry(uri, t.entry().name(), t.entry().title(), t.entry().description(), mime,
                (long) bytes.length, null, t.entry().annotations());
        return new ResourceContent(entry, bytes, true);
    }

    @Override
    public List<TemplateEntry> templates() {
        return templates.stream().map(CompiledTemplate::entry).toList();
    }

    private static dev.quaestor.provider.ResourceAnnotations annotations(Mount mount, String what,
            StaticCatalog.Annotations a) {
        if (a == null) {
            return null;
        }
        try {
            return a.toSpi();
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("mount '" + mount.name() + "': " + what + ": " + e.getMessage());
        }
    }
}
