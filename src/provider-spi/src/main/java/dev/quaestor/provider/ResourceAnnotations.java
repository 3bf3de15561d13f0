package dev.quaestor.provider;

import java.util.List;

/**
 * MCP annotations besides {@code lastModified} (which {@link ResourceEntry} carries itself):
 * who the content is meant for ({@code user}, {@code assistant}) and how important it is, from
 * 0 (optional) to 1 (required). Either may be null.
 */
public record ResourceAnnotations(List<String> audience, Double priority) {

    public ResourceAnnotations {
        if (audience != null) {
            for (String a : audience) {
                if (!a.equals("user") && !a.equals("assistant")) {
                    throw new IllegalArgumentException("audience must be 'user' or 'assistant', not '" + a + "'");
                }
            }
            audience = List.copyOf(audience);
        }
        if (priority != null && !(priority >= 0.0 && priority <= 1.0)) {
            throw new IllegalArgumentException("priority must be between 0 and 1, not " + priority);
        }
    }
}
