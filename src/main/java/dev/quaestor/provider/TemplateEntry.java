package dev.quaestor.provider;

/** A parameterised resource (RFC 6570 URI template) a provider can serve. */
public record TemplateEntry(String uriTemplate, String name, String title, String description, String mimeType) {
}
