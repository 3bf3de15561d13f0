package dev.quaestor.mcp.schema;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.List;
import java.util.Map;

/** MCP wire types for the resources primitive (2025-03-26, 2025-06-18, 2025-11-25). */
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

    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record Annotations(String lastModified) {
    }

    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record Resource(String uri, String name, String title, String description, String mimeType, Long size,
            Annotations annotations) {
    }

    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record ResourceTemplate(String uriTemplate, String name, String title, String description,
            String mimeType) {
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
