package dev.quaestor.mcp.resources;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.quaestor.mcp.limits.BatchBytes;
import dev.quaestor.mcp.wire.Answer;
import dev.quaestor.mcp.wire.ErrorCodes;
import dev.quaestor.mcp.wire.JsonRpc;
import dev.quaestor.mcp.wire.MalformedParams;
import dev.quaestor.mcp.wire.McpError;
import dev.quaestor.mcp.wire.StatelessResults;
import dev.quaestor.mcp.wire.ProtocolRevision;
import dev.quaestor.mcp.wire.RateHeaders;
import dev.quaestor.mcp.wire.Schema;
import dev.quaestor.pipeline.CacheHint;
import dev.quaestor.pipeline.Completions;
import dev.quaestor.pipeline.ReadResult;
import dev.quaestor.pipeline.RequestContext;
import dev.quaestor.pipeline.ReadConfig;
import dev.quaestor.pipeline.ResourcePipeline;
import dev.quaestor.pipeline.Served;
import dev.quaestor.pipeline.StreamedRead;
import dev.quaestor.provider.Page;
import dev.quaestor.provider.ResourceEntry;
import dev.quaestor.provider.TemplateEntry;
import jakarta.enterprise.context.ApplicationScoped;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The resource methods both generations share ({@code resources/list}, {@code resources/templates/list},
 * {@code resources/read}, {@code completion/complete}): their params read, the request path asked, and its
 * result written in the generation's shape. 2026-07-28 results add {@code resultType}, {@code _meta} and, where
 * cacheable, {@code ttlMs} and {@code cacheScope} ({@link StatelessResults}). Refusals are thrown
 * ({@link dev.quaestor.pipeline.Refusal}, {@link McpError}, params that cannot be read {@link MalformedParams}) for the
 * generation to answer.
 */
@ApplicationScoped
public class ResourceMethods {

    public static final Set<String> METHODS = Set.of("resources/list", "resources/templates/list", "resources/read",
            "completion/complete");

    private final ResourcePipeline pipeline;
    private final ObjectMapper json;
    private final int bufferLimit;

    ResourceMethods(ResourcePipeline pipeline, ObjectMapper json, ReadConfig reads) {
        this.pipeline = pipeline;
        this.json = json;
        this.bufferLimit = reads.bufferLimit();
    }

    /**
     * The answer to one of {@link #METHODS}. {@code batch}: the bytes the batch's answer may still hold (null outside
     * a batch); content that does not fit is refused.
     */
    public Answer call(String method, JsonNode id, JsonNode params, RequestContext ctx,
            ProtocolRevision revision, BatchBytes batch) {
        return switch (method) {
            case "resources/list" -> listing(id, pipeline.list(ctx, cursor(params)), revision);
            case "resources/templates/list" -> templates(id, pipeline.templates(ctx, cursor(params)), revision);
            case "resources/read" -> batch == null ? read(id, pipeline.read(ctx, uri(params)), revision, null)
                    : read(id, pipeline.read(ctx, uri(params), batch.left()), revision, batch);
            case "completion/complete" -> complete(id, ctx, params, revision);
            default -> throw new IllegalArgumentException("not a resource method: " + method);
        };
    }

    private Answer listing(JsonNode id, Served<Page<ResourceEntry>> served, ProtocolRevision revision) {
        var page = served.result();
        var resources = new ArrayList<Schema.Resource>(page.items().size());
        for (ResourceEntry e : page.items()) {
            resources.add(new Schema.Resource(e.uri().toString(), e.name(), e.title(), e.description(), e.mimeType(),
                    e.size(), Schema.Annotations.of(e.annotations(), e.lastModified())));
        }
        return answer(id, new Schema.ListResourcesResult(resources, page.nextCursor()), served, revision);
    }

    private Answer templates(JsonNode id, Served<List<TemplateEntry>> served, ProtocolRevision revision) {
        var out = new ArrayList<Schema.ResourceTemplate>(served.result().size());
        for (TemplateEntry t : served.result()) {
            out.add(new Schema.ResourceTemplate(t.uriTemplate(), t.name(), t.title(), t.description(), t.mimeType(),
                    Schema.Annotations.of(t.annotations(), null)));
        }
        return answer(id, new Schema.ListResourceTemplatesResult(out, null), served, revision);
    }

    private Answer read(JsonNode id, Served<ReadResult> served, ProtocolRevision revision, BatchBytes batch) {
        if (served.result() instanceof StreamedRead streamed) {
            if (batch != null) {
                // Held only up to the smaller of the two: say which one it passed.
                boolean streamedAnyway = batch.left() >= bufferLimit;
                streamed.discard("refused-in-batch", ErrorCodes.INVALID_REQUEST, streamedAnyway
                        ? "more than quaestor.read.buffer-limit (" + bufferLimit + " bytes): streamed, and a batch's"
                                + " answer holds no streamed read"
                        : "more than the " + batch.left() + " bytes the batch's answer may still hold"
                                + " (quaestor.http.max-batch-bytes " + batch.max() + ")");
                throw new McpError(ErrorCodes.INVALID_REQUEST, streamedAnyway
                        ? "Resource too large to read inside a batch (over " + bufferLimit + " bytes, it is streamed, and"
                                + " a batch's answer is built whole); read it in a request of its own"
                        : "Resource too large to read inside a batch (its answer holds at most " + batch.max()
                                + " bytes of content, " + batch.left() + " of them left); read it in a request of its own",
                        Map.of("uri", streamed.uri()));
            }
            String fields = revision.stateless() ? StatelessResults.streamedReadFields(json, served.cache()) : "";
            return new Answer(new Answer.Streamed(id, streamed, fields), 200, RateHeaders.of(served.rate()))
                    .ifUndelivered(streamed::lost);
        }
        var complete = (ReadResult.Complete) served.result();
        if (batch != null) {
            batch.spend(complete.bytes().length);
        }
        var item = complete.text()
                ? new Schema.ResourceContents(complete.uri(), complete.mimeType(), new String(complete.bytes(), StandardCharsets.UTF_8), null)
                : new Schema.ResourceContents(complete.uri(), complete.mimeType(), null, Base64.getEncoder().encodeToString(complete.bytes()));
        return answer(id, new Schema.ReadResourceResult(List.of(item)), served, revision);
    }

    /** {@code completion/complete}: only resource-template arguments (this server has no prompts). */
    private Answer complete(JsonNode id, RequestContext ctx, JsonNode params, ProtocolRevision revision) {
        JsonNode ref = params == null ? null : params.get("ref");
        JsonNode argument = params == null ? null : params.get("argument");
        if (ref == null || !ref.isObject() || argument == null || !argument.isObject()
                || !argument.path("name").isTextual() || !argument.path("value").isTextual()) {
            throw new MalformedParams("params need ref and argument {name, value}");
        }
        if (!"ref/resource".equals(ref.path("type").asText()) || !ref.path("uri").isTextual()) {
            throw new MalformedParams("Only ref/resource with a uri template can be completed");
        }
        var resolved = new LinkedHashMap<String, String>();
        JsonNode given = params.path("context").path("arguments");
        if (given.isObject()) {
            given.fields().forEachRemaining(e -> {
                if (e.getValue().isTextual()) {
                    resolved.put(e.getKey(), e.getValue().asText());
                }
            });
        }
        Served<Completions> served = pipeline.complete(ctx, ref.get("uri").asText(), argument.get("name").asText(),
                argument.get("value").asText(), resolved);
        var completions = served.result();
        return answer(id, new Schema.CompleteResult(new Schema.Completion(completions.values(), null, completions.more())),
                served, revision);
    }

    private Answer answer(JsonNode id, Object result, Served<?> served, ProtocolRevision revision) {
        Object body = result;
        if (revision.stateless()) {
            CacheHint cache = served.cache();
            body = cache == null ? StatelessResults.complete(json, result) : StatelessResults.cacheable(json, result, cache);
        }
        return new Answer(new JsonRpc.Result(id, body), 200, RateHeaders.of(served.rate()))
                .ifUndelivered(served.undelivered());
    }

    static String cursor(JsonNode params) {
        if (params == null || !params.has("cursor") || params.get("cursor").isNull()) {
            return null;
        }
        JsonNode c = params.get("cursor");
        if (!c.isTextual() || c.asText().isEmpty() || c.asText().length() > 4096) {
            throw new MalformedParams("Invalid cursor");
        }
        return c.asText();
    }

    public static String uri(JsonNode params) {
        JsonNode u = params == null ? null : params.get("uri");
        if (u == null || !u.isTextual()) {
            throw new MalformedParams("params.uri must be a string");
        }
        return u.asText();
    }
}
