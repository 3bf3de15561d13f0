package dev.quaestor.provider.statics;

import com.fasterxml.jackson.annotation.JsonProperty;
import dev.quaestor.provider.ResourceAnnotations;
import java.util.List;

/** The YAML file behind a static mount: fixed resources and text-producing templates. */
record StaticCatalog(List<Item> resources, List<Template> templates) {

    StaticCatalog {
        resources = resources == null ? List.of() : resources;
        templates = templates == null ? List.of() : templates;
    }

    /** A fixed resource: exactly one of {@code text} or {@code blob} (base64). */
    record Item(@JsonProperty(required = true) String uri, String name, String title, String description,
            String mimeType, String text, String blob, Annotations annotations) {
    }

    /** MCP annotations: who the content is for ({@code user}, {@code assistant}) and its priority (0 to 1). */
    record Annotations(List<String> audience, Double priority) {
        ResourceAnnotations toSpi() {
            return new ResourceAnnotations(audience, priority);
        }
    }

    /**
     * A template; reading a URI that matches {@code uriTemplate} returns {@code text} with each
     * {@code {var}} replaced by the value taken from the URI (JSON-escaped for JSON types).
     */
    record Template(@JsonProperty(required = true) String uriTemplate, String name, String title,
            String description, String mimeType, @JsonProperty(required = true) String text, Annotations annotations) {
    }
}
