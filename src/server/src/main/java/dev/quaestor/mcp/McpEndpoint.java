package dev.quaestor.mcp;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.JsonNodeType;
import com.fasterxml.jackson.databind.node.NullNode;
import dev.quaestor.audit.RequestIds;
import dev.quaestor.identity.Identity;
import dev.quaestor.identity.IdentityMapper;
import dev.quaestor.mcp.schema.ErrorCodes;
import dev.quaestor.mcp.schema.McpError;
import dev.quaestor.mcp.schema.Schema;
import dev.quaestor.pipeline.Completions;
import dev.quaestor.pipeline.ReadResult;
import dev.quaestor.pipeline.Refusal;
import dev.quaestor.provider.Page;
import dev.quaestor.provider.ResourceEntry;
import dev.quaestor.provider.TemplateEntry;
import dev.quaestor.pipeline.RequestContext;
import dev.quaestor.pipeline.ResourcePipeline;
import dev.quaestor.pipeline.Served;
import dev.quaestor.pipeline.StreamedRead;
import dev.quaestor.subscription.Subscriber;
import dev.quaestor.subscription.SubscriptionStore;
import io.quarkus.security.identity.SecurityIdentity;
import io.smallrye.common.annotation.Blocking;
import io.smallrye.mutiny.Multi;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.WebApplicationException;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.sse.OutboundSseEvent;
import jakarta.ws.rs.sse.Sse;
import java.time.Instant;
import org.jboss.resteasy.reactive.ResponseHeader;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.ext.web.RoutingContext;
import jakarta.inject.Inject;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.Response;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.eclipse.microprofile.jwt.JsonWebToken;
import org.jboss.logging.Logger;

/**
 * The MCP Streamable HTTP endpoint. POST carries JSON-RPC (answered as JSON, or as a one-event SSE
 * stream when the client accepts only that), GET opens the session's server-to-client stream of
 * notifications ({@link EventStreams}), DELETE ends the session and its stream and subscriptions. Origin/Host checks and authentication have run before any method here.
 */
@Path("/mcp")
public class McpEndpoint {

    private static final Logger LOG = Logger.getLogger(McpEndpoint.class);
    static final String SESSION_HEADER = "Mcp-Session-Id";
    static final String VERSION_HEADER = "MCP-Protocol-Version";
    static final String REQUEST_ID_HEADER = "X-Request-Id";

    @Inject
    ObjectMapper json;
    @Inject
    SecurityIdentity security;
    @Inject
    IdentityMapper identities;
    @Inject
    SessionStore sessions;
    @Inject
    ResourcePipeline pipeline;
    @Inject
    EventStreams streams;
    @Inject
    SubscriptionStore subscriptions;
    @Inject
    StreamedResponses streamed;
    @Inject
    RequestBodyReader bodies;

    /** Per-HTTP-request state. */
    private record Call(Identity identity, String sourceIp, String userAgent, SessionStore.Session session,
            String protocolVersion) {
    }

    /** The outcome of one JSON-RPC message: a body element (or null for a notification) plus HTTP hints. */
    private record Answer(Object body, int status, Map<String, String> headers) {
    }

    /** Whether a request path is this endpoint's (the HTTP filters in front of it ask). */
    static boolean handles(String path) {
        return path != null && (path.equals("/mcp") || path.startsWith("/mcp/"));
    }

    /** The body is read by {@link RequestBodyReader}: over HTTP/1.x on the I/O thread, before this worker takes the request. */
    @POST
    public Response post(@Context RoutingContext rc, @Context HttpHeaders headers, @Context HttpServerRequest request) {
        String httpRequestId = RequestIds.next();
        byte[] body;
        try {
            body = bodies.body(rc);
        } catch (RequestBodyReader.Refused e) {
            return plain(e.status, e.getMessage().strip(), httpRequestId);
        }
        String accept = headers.getHeaderString(HttpHeaders.ACCEPT);
        boolean sse = acceptsOnlySse(accept);
        if (!sse && !acceptsJson(accept)) {
            return plain(406, "Accept must include application/json or text/event-stream", httpRequestId);
        }
        String contentType = headers.getHeaderString(HttpHeaders.CONTENT_TYPE);
        if (contentType != null && !contentType.toLowerCase().startsWith("application/json")) {
            return plain(415, "Content-Type must be application/json", httpRequestId);
        }
        JsonNode root;
        try {
            root = body == null || body.length == 0 ? null : json.readTree(body);
        } catch (JsonProcessingException e) {
            root = null;
        } catch (java.io.IOException e) {
            root = null;
        }
        if (root == null || root.isMissingNode()) {
            return error(400, NullNode.instance, ErrorCodes.PARSE_ERROR, "Parse error", Map.of(), httpRequestId, sse);
        }

        Identity identity = identities.of(security);
        String sourceIp = request.remoteAddress() == null ? null : request.remoteAddress().hostAddress();
        String userAgent = headers.getHeaderString(HttpHeaders.USER_AGENT);

        List<JsonNode> items = new ArrayList<>();
        boolean batch = root.isArray();
        if (batch) {
            root.forEach(items::add);
            if (items.isEmpty()) {
                return error(400, NullNode.instance, ErrorCodes.INVALID_REQUEST, "Empty batch", Map.of(), httpRequestId, sse);
            }
        } else {
            items.add(root);
        }

        // initialize opens a session; everything else must name a live one belonging to the caller.
        boolean initialize = !batch && "initialize".equals(root.path("method").asText(null));
        if (initialize) {
            return initialize(root, identity, httpRequestId, sse);
        }
        String sessionId = headers.getHeaderString(SESSION_HEADER);
        if (sessionId == null || sessionId.isBlank()) {
            return error(400, idOf(root), ErrorCodes.INVALID_REQUEST, "Missing Mcp-Session-Id header; call initialize first",
                    Map.of(), httpRequestId, sse);
        }
        java.util.Optional<SessionStore.Session> session;
        try {
            session = sessions.find(sessionId, identity.subject());
        } catch (RuntimeException e) {
            // The session store is the database: if it cannot answer, fail closed like the audit log.
            LOG.errorf("session lookup failed for request %s: %s", httpRequestId, e.toString());
            return error(503, idOf(root), ErrorCodes.UNAVAILABLE, "Service unavailable", Map.of(), httpRequestId, sse);
        }
        if (session.isEmpty()) {
            return Response.status(404).header(REQUEST_ID_HEADER, httpRequestId).build();
        }
        String version = headers.getHeaderString(VERSION_HEADER);
        if (version != null && (!ProtocolVersions.isSupported(version) || !version.equals(session.get().protocolVersion()))) {
            return error(400, idOf(root), ErrorCodes.INVALID_REQUEST, "Unsupported or mismatched MCP-Protocol-Version: " + version,
                    Map.of(), httpRequestId, sse);
        }
        var call = new Call(identity, sourceIp, userAgent, session.get(), session.get().protocolVersion());

        var answers = new ArrayList<Answer>();
        for (int i = 0; i < items.size(); i++) {
            String rid = i == 0 ? httpRequestId : RequestIds.next();
            answers.add(handle(items.get(i), call, rid, batch));
        }
        if (!batch && answers.get(0).body() instanceof Streamed s) {
            return streamed.build(s.id(), s.read(), sse, request, httpRequestId, answers.get(0).headers());
        }
        var bodies = answers.stream().map(Answer::body).filter(b -> b != null).toList();
        if (bodies.isEmpty()) {
            return Response.status(202).header(REQUEST_ID_HEADER, httpRequestId).build();
        }
        int status = batch ? 200 : answers.get(0).status();
        var builder = respond(status, batch ? bodies : bodies.get(0), sse).header(REQUEST_ID_HEADER, httpRequestId);
        if (!batch) {
            answers.get(0).headers().forEach(builder::header);
        }
        return builder.build();
    }

    /**
     * Opens the session's server-to-client stream (SSE): notifications of changed resources and
     * lists, plus keep-alive comments. One stream per session: a new GET replaces the old stream
     * (on any replica). Same session rules as POST: missing id 400, unknown, ended or another
     * subject's session 404.
     */
    @GET
    @Produces(MediaType.SERVER_SENT_EVENTS)
    @ResponseHeader(name = "Cache-Control", value = "no-cache")
    @ResponseHeader(name = "X-Accel-Buffering", value = "no")
    @Blocking
    public Multi<OutboundSseEvent> stream(@Context HttpHeaders headers, @Context HttpServerRequest request,
            @Context Sse sse) {
        String requestId = RequestIds.next();
        String sessionId = headers.getHeaderString(SESSION_HEADER);
        if (sessionId == null || sessionId.isBlank()) {
            throw new WebApplicationException(plain(400, "Missing Mcp-Session-Id header; call initialize first", requestId));
        }
        var token = (JsonWebToken) security.getPrincipal();
        Identity identity = identities.map(token);
        java.util.Optional<SessionStore.Session> session;
        try {
            session = sessions.find(sessionId, identity.subject());
        } catch (RuntimeException e) {
            LOG.errorf("session lookup failed for request %s: %s", requestId, e.toString());
            throw new WebApplicationException(plain(503, "Service unavailable", requestId));
        }
        if (session.isEmpty()) {
            throw new WebApplicationException(Response.status(404).header(REQUEST_ID_HEADER, requestId).build());
        }
        String version = headers.getHeaderString(VERSION_HEADER);
        if (version != null && (!ProtocolVersions.isSupported(version) || !version.equals(session.get().protocolVersion()))) {
            throw new WebApplicationException(plain(400, "Unsupported or mismatched MCP-Protocol-Version", requestId));
        }
        String sourceIp = request.remoteAddress() == null ? null : request.remoteAddress().hostAddress();
        Instant expiry = token.getExpirationTime() > 0 ? Instant.ofEpochSecond(token.getExpirationTime()) : null;
        try {
            return streams.open(sessionId, new Subscriber(identity, sourceIp), expiry, sse);
        } catch (RuntimeException e) {
            LOG.errorf("cannot open the stream for request %s: %s", requestId, e.toString());
            throw new WebApplicationException(plain(503, "Service unavailable", requestId));
        }
    }

    @DELETE
    public Response end(@Context HttpHeaders headers) {
        String sessionId = headers.getHeaderString(SESSION_HEADER);
        if (sessionId == null || sessionId.isBlank()) {
            return Response.status(400).build();
        }
        Identity identity = identities.of(security);
        if (!sessions.end(sessionId, identity.subject())) {
            return Response.status(404).build();
        }
        // The stream here ends now; a stream on another replica ends at that replica's next check.
        streams.close(sessionId);
        try {
            subscriptions.removeSession(sessionId);
        } catch (RuntimeException e) {
            // The session has ended, so its subscriptions can never be delivered; they are only left behind.
            LOG.warnf("subscriptions of ended session could not be removed: %s", e.toString());
        }
        return Response.noContent().build();
    }

    private Response initialize(JsonNode root, Identity identity, String requestId, boolean sse) {
        JsonNode id = root.get("id");
        if (id == null || !(id.isTextual() || id.isIntegralNumber())) {
            return error(400, NullNode.instance, ErrorCodes.INVALID_REQUEST, "initialize must be a request with an id",
                    Map.of(), requestId, sse);
        }
        JsonNode params = root.get("params");
        String requested = params == null ? null : params.path("protocolVersion").asText(null);
        if (requested == null) {
            return error(200, id, ErrorCodes.INVALID_PARAMS, "initialize needs params.protocolVersion", Map.of(), requestId, sse);
        }
        String version = ProtocolVersions.negotiate(requested);
        String clientName = params.path("clientInfo").path("name").asText(null);
        SessionStore.Session session;
        try {
            session = sessions.open(identity.subject(), version, clientName);
        } catch (RuntimeException e) {
            LOG.errorf("cannot open session for request %s: %s", requestId, e.toString());
            return error(503, id, ErrorCodes.UNAVAILABLE, "Service unavailable", Map.of(), requestId, sse);
        }
        var result = new Schema.InitializeResult(version,
                new Schema.ServerCapabilities(new Schema.ResourcesCapability(true, true), null, Map.of()),
                new Schema.Implementation("quaestor", "Quaestor", ServerVersion.VALUE),
                "Governed read access to organisational content. Every read is authorised by policy and audited.");
        return respond(200, new JsonRpc.Result(id, result), sse)
                .header(SESSION_HEADER, session.id())
                .header(REQUEST_ID_HEADER, requestId)
                .build();
    }

    private Answer handle(JsonNode node, Call call, String requestId, boolean inBatch) {
        JsonNode id = node.get("id");
        if (!node.isObject() || !"2.0".equals(node.path("jsonrpc").asText(null))) {
            return failure(id, ErrorCodes.INVALID_REQUEST, "Invalid JSON-RPC 2.0 message", Map.of(), requestId, 200);
        }
        if (!node.has("method")) {
            // A response from the client to a server request; this server sends none, so just accept it.
            return new Answer(null, 202, Map.of());
        }
        String method = node.path("method").asText(null);
        if (method == null) {
            return failure(id, ErrorCodes.INVALID_REQUEST, "method must be a string", Map.of(), requestId, 200);
        }
        if (id == null) {
            // Notifications get no answer; notifications/initialized and cancellations need no action here.
            return new Answer(null, 202, Map.of());
        }
        if (!(id.isTextual() || id.isIntegralNumber())) {
            return failure(NullNode.instance, ErrorCodes.INVALID_REQUEST, "id must be a string or an integer", Map.of(), requestId, 200);
        }
        JsonNode params = node.get("params");
        if (params != null && params.getNodeType() != JsonNodeType.OBJECT) {
            return failure(id, ErrorCodes.INVALID_PARAMS, "params must be an object", Map.of(), requestId, 200);
        }
        var ctx = new RequestContext(requestId, call.identity(), call.sourceIp(), call.userAgent(), call.session().id(),
                call.protocolVersion(), RefusalErrors.CODES_2025);
        try {
            return switch (method) {
                case "ping" -> new Answer(new JsonRpc.Result(id, Map.of()), 200, Map.of());
                case "initialize" -> failure(id, ErrorCodes.INVALID_REQUEST, "Session is already initialized", Map.of(), requestId, 200);
                case "resources/list" -> listing(id, pipeline.list(ctx, cursor(params)));
                case "resources/templates/list" -> templates(id, pipeline.templates(ctx, cursor(params)));
                case "resources/read" -> read(id, pipeline.read(ctx, uri(params)), inBatch);
                case "resources/subscribe" -> empty(id, pipeline.subscribe(ctx, uri(params)));
                case "resources/unsubscribe" -> empty(id, pipeline.unsubscribe(ctx, uri(params)));
                case "completion/complete" -> complete(id, ctx, params);
                default -> failure(id, ErrorCodes.METHOD_NOT_FOUND, "Method not found: " + truncate(method), Map.of(), requestId, 200);
            };
        } catch (Refusal r) {
            McpError e = RefusalErrors.toError(r, ctx.codes());
            return failure(id, e.code(), e.getMessage(), e.data(), requestId, e.httpStatus(), e.headers());
        } catch (McpError e) {
            return failure(id, e.code(), e.getMessage(), e.data(), requestId, e.httpStatus(), e.headers());
        } catch (RuntimeException e) {
            LOG.errorf(e, "internal error in request %s", requestId);
            return failure(id, ErrorCodes.INTERNAL_ERROR, "Internal error", Map.of(), requestId, 200);
        }
    }

    /** {@code completion/complete}: only resource-template arguments (this server has no prompts). */
    private Answer complete(JsonNode id, RequestContext ctx, JsonNode params) {
        JsonNode ref = params == null ? null : params.get("ref");
        JsonNode argument = params == null ? null : params.get("argument");
        if (ref == null || !ref.isObject() || argument == null || !argument.isObject()
                || !argument.path("name").isTextual() || !argument.path("value").isTextual()) {
            throw new McpError(ErrorCodes.INVALID_PARAMS, "params need ref and argument {name, value}", Map.of());
        }
        if (!"ref/resource".equals(ref.path("type").asText()) || !ref.path("uri").isTextual()) {
            throw new McpError(ErrorCodes.INVALID_PARAMS, "Only ref/resource with a uri template can be completed", Map.of());
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
        return answer(id, new Schema.CompleteResult(new Schema.Completion(completions.values(), null, completions.more())), served);
    }

    /** A read's answer: a complete result, or content to be streamed by {@link StreamedResponses}. */
    private static Answer read(JsonNode id, Served<ReadResult> served, boolean inBatch) {
        if (served.result() instanceof StreamedRead streamed) {
            if (inBatch) {
                streamed.discard("refused-in-batch", ErrorCodes.INVALID_REQUEST, "streamed content is not sent inside a batch");
                throw new McpError(ErrorCodes.INVALID_REQUEST,
                        "Resource too large to read inside a batch; read it in a request of its own", Map.of("uri", streamed.uri()));
            }
            return new Answer(new Streamed(id, streamed), 200, RateHeaders.of(served.rate()));
        }
        var complete = (ReadResult.Complete) served.result();
        var item = complete.text()
                ? new Schema.ResourceContents(complete.uri(), complete.mimeType(), new String(complete.bytes(), StandardCharsets.UTF_8), null)
                : new Schema.ResourceContents(complete.uri(), complete.mimeType(), null, Base64.getEncoder().encodeToString(complete.bytes()));
        return answer(id, new Schema.ReadResourceResult(List.of(item)), served);
    }

    private static Answer listing(JsonNode id, Served<Page<ResourceEntry>> served) {
        var page = served.result();
        var resources = new ArrayList<Schema.Resource>(page.items().size());
        for (ResourceEntry e : page.items()) {
            resources.add(new Schema.Resource(e.uri().toString(), e.name(), e.title(), e.description(), e.mimeType(),
                    e.size(), e.lastModified() == null ? null : new Schema.Annotations(e.lastModified().toString())));
        }
        return answer(id, new Schema.ListResourcesResult(resources, page.nextCursor()), served);
    }

    private static Answer templates(JsonNode id, Served<List<TemplateEntry>> served) {
        var out = new ArrayList<Schema.ResourceTemplate>(served.result().size());
        for (TemplateEntry t : served.result()) {
            out.add(new Schema.ResourceTemplate(t.uriTemplate(), t.name(), t.title(), t.description(), t.mimeType()));
        }
        return answer(id, new Schema.ListResourceTemplatesResult(out, null), served);
    }

    private static Answer empty(JsonNode id, Served<Void> served) {
        return answer(id, Map.of(), served);
    }

    /** An answer whose body is written as it is read. */
    private record Streamed(JsonNode id, StreamedRead read) {
    }

    private static Answer answer(JsonNode id, Object result, Served<?> served) {
        return new Answer(new JsonRpc.Result(id, result), 200, RateHeaders.of(served.rate()));
    }

    private static String cursor(JsonNode params) {
        if (params == null || !params.has("cursor") || params.get("cursor").isNull()) {
            return null;
        }
        JsonNode c = params.get("cursor");
        if (!c.isTextual() || c.asText().isEmpty() || c.asText().length() > 4096) {
            throw new McpError(ErrorCodes.INVALID_PARAMS, "Invalid cursor", Map.of());
        }
        return c.asText();
    }

    private static String uri(JsonNode params) {
        JsonNode u = params == null ? null : params.get("uri");
        if (u == null || !u.isTextual()) {
            throw new McpError(ErrorCodes.INVALID_PARAMS, "params.uri must be a string", Map.of());
        }
        return u.asText();
    }

    private static Answer failure(JsonNode id, int code, String message, Map<String, Object> data, String requestId, int status) {
        return failure(id, code, message, data, requestId, status, Map.of());
    }

    private static Answer failure(JsonNode id, int code, String message, Map<String, Object> data, String requestId,
            int status, Map<String, String> headers) {
        var d = new LinkedHashMap<String, Object>(data);
        d.put("requestId", requestId);
        var body = new JsonRpc.Error(id == null ? NullNode.instance : id, new JsonRpc.ErrorObject(code, message, d));
        return new Answer(body, status, headers);
    }

    private Response error(int status, JsonNode id, int code, String message, Map<String, Object> data, String requestId,
            boolean sse) {
        Answer a = failure(id, code, message, data, requestId, status);
        return respond(status, a.body(), sse).header(REQUEST_ID_HEADER, requestId).build();
    }

    private Response.ResponseBuilder respond(int status, Object body, boolean sse) {
        byte[] bytes;
        try {
            bytes = json.writeValueAsBytes(body);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
        if (sse) {
            // One event carrying the response, then the stream ends: the simplest valid SSE answer.
            String event = "event: message\ndata: " + new String(bytes, StandardCharsets.UTF_8) + "\n\n";
            return Response.status(status).type("text/event-stream").header("Cache-Control", "no-cache").entity(event);
        }
        return Response.status(status).type("application/json").entity(bytes);
    }

    private static Response plain(int status, String message, String requestId) {
        return Response.status(status).type("text/plain").entity(message + "\n").header(REQUEST_ID_HEADER, requestId).build();
    }

    private static JsonNode idOf(JsonNode root) {
        JsonNode id = root.isObject() ? root.get("id") : null;
        return id == null ? NullNode.instance : id;
    }

    private static boolean acceptsJson(String accept) {
        if (accept == null || accept.isBlank()) {
            return true;
        }
        String a = accept.toLowerCase();
        return a.contains("application/json") || a.contains("*/*") || a.contains("application/*");
    }

    private static boolean acceptsOnlySse(String accept) {
        return accept != null && accept.toLowerCase().contains("text/event-stream") && !acceptsJsonExplicitly(accept);
    }

    private static boolean acceptsJsonExplicitly(String accept) {
        String a = accept.toLowerCase();
        return a.contains("application/json") || a.contains("*/*") || a.contains("application/*");
    }

    private static String truncate(String s) {
        return s.length() <= 100 ? s : s.substring(0, 100) + "...";
    }
}
