package dev.quaestor.provider;

import dev.quaestor.uri.UriTemplate;

/**
 * A parameterised resource (RFC 6570 URI template) a provider can serve. {@code annotations}
 * may be null.
 */
public record TemplateEntry(String uriTemplate, String name, String title, String description, String mimeType,
        ResourceAnnotations annotations) {

    /** A template without annotations (the form every provider used first). */
    public TemplateEntry(String uriTemplate, String name, String title, String description, String mimeType) {
        this(uriTemplate, name, title, description, mimeType, null);
    }

    /** An entry for a parsed template. */
    public static TemplateEntry of(UriTemplate template, String name, String title, String description,
            String mimeType) {
        return new TemplateEntry(template.text(), name, title, description, mimeType, null);
    }
}
