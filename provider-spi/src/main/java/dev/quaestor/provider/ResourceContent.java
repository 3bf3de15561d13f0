package dev.quaestor.provider;

/**
 * The bytes of one resource as served. {@code text} says whether they go out as UTF-8 {@code text}
 * or as a base64 {@code blob}; the audit digest is always over exactly these bytes.
 */
public record ResourceContent(ResourceEntry entry, byte[] bytes, boolean text) {
}
