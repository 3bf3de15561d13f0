package dev.quaestor.mcp.wire;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.List;
import java.util.Map;

/**
 * MCP wire types for the resources primitive (2025-03-26, 2025-06-18, 2025-11-25; 2026-07-28 results
 * are these plus the fields {@code StatelessResults} adds).
 */
public final class Schema {

    private Schema() {
    }

    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record Implementation(String name, String title, String version) {
    }

    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record ResourcesCapability(Boolean subscribe, Boolean listChanged) {
    }

    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record ServerCapabilities(ResourcesCapability resources, Map<String, Object> logging,
            Map<String, Object> completions) {
    }

    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record InitializeResult(String protocolVersion, ServerCapabilities capabilities,
            Implementation serverInfo, String instructions) {
    }

    /** {@code audience} and {@code priority} as the provider gave them; {@code lastModified} as ISO 8601. */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record Annotations(List<String> audience, Double priority, String lastModified) {

        /** The annotations of an entry, or null when it has none. */
        public static Annotations of(dev.quaestor.provider.ResourceAnnotations a, java.time.Instant lastModified) {
            List<String> audience = a == null ? null : a.audience();
            Double priority = a == null ? null : a.priority();
            if (audience == null && priority == null && lastModified == null) {
                return null;
            }
            return new Annotations(audience, priority, lastModified == null ? null : lastModified.toString());
        }
    }

    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record Resource(String uri, String name, String title, String description, String mimeType, Long size,
            Annotations annotations) {
    }

    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record ResourceTemplate(String uriTemplate, String name, String title, String description,
            String mimeType, Annotations annotations) {
    }

    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record ResourceContents(String uri, String mimeType, String text, String blob) {
    }

    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record ListResourcesResult(List<Resource> resources, String nextCursor) {
    }

    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record ListResourceTemplatesResult(List<ResourceTemplate> resourceTemplates, String nextCursor) {
    }

    public record ReadResourceResult(List<ResourceContents> contents) {
    }

    /** {@code completion/complete}: candidate values for one template argument. */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record Completion(List<String> values, Integer total, Boolean hasMore) {
    }

    public record CompleteResult(Completion completion) {
    }
}
