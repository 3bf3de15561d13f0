package dev.quaestor.mcp.stateless;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.quaestor.audit.refusals.RecordedRefusal;
import dev.quaestor.identity.Identity;
import dev.quaestor.mcp.resources.ResourceMethods;
import dev.quaestor.mcp.wire.Answer;
import dev.quaestor.mcp.wire.ErrorCodes;
import dev.quaestor.mcp.wire.JsonRpc;
import dev.quaestor.mcp.wire.Malformed;
import dev.quaestor.mcp.wire.MalformedParams;
import dev.quaestor.mcp.wire.McpError;
import dev.quaestor.mcp.wire.StatelessResults;
import dev.quaestor.mcp.wire.ProtocolRevision;
import dev.quaestor.mcp.wire.ServerInfo;
import dev.quaestor.mcp.wire.VersionHeader;
import dev.quaestor.mcp.wire.WireErrors;
import dev.quaestor.pipeline.CacheHint;
import dev.quaestor.pipeline.Refusal;
import dev.quaestor.pipeline.RequestContext;
import dev.quaestor.pipeline.ResourcePipeline;
import dev.quaestor.policy.Action;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.LinkedHashMap;
import java.util.Map;
import org.jboss.logging.Logger;

import static dev.quaestor.mcp.wire.Generation.STATELESS;

/**
 * MCP 2026-07-28 requests: stateless, each carrying its protocol version and the client's capabilities in
 * {@code params._meta}, with no {@code initialize} and no session. Each request is checked in this order,
 * and the first failure answers it:
 *
 * <ol>
 *   <li>a body that is exactly one JSON value in UTF-8 (else 400, -32700): parsed by the transport, and a body that is
 *       not is answered here ({@link #unparsed});</li>
 *   <li>a JSON-RPC 2.0 request or notification (else 400, -32600); a notification or a response is
 *       accepted with 202 and nothing else;</li>
 *   <li>{@code _meta} with {@code protocolVersion} and {@code clientCapabilities} (else 400, -32602);</li>
 *   <li>an {@code MCP-Protocol-Version} header that differs from {@code _meta} (400, -32020);</li>
 *   <li>a version this server speaks statelessly (else 400, -32022 with {@code data: {supported, requested}});</li>
 *   <li>the {@code MCP-Protocol-Version} header present, and {@code Mcp-Method} (and for
 *       {@code resources/read} {@code Mcp-Name}) equal to the body (else 400, -32020, {@link RequestHeaders});</li>
 *   <li>a method this server serves (else 404, -32601): {@code server/discover}, the resource methods,
 *       {@code subscriptions/listen} ({@link ListenRequests}).</li>
 * </ol>
 *
 * Refusals at steps 1 to 6 are audited (a {@code DECISION} {@code DENY}: {@link ResourcePipeline#rejectMalformed} at
 * steps 1 and 2, {@link ResourcePipeline#rejectFraming} at 3 to 6) and charged to the caller's rate limits before they
 * are answered, and policy is never consulted for them. What follows goes through the request path like any request; its refusals are answered in band (HTTP 200) except those with a status of their own (429,
 * 503). {@code Mcp-Session-Id} and {@code Last-Event-ID} are ignored.
 */
@ApplicationScoped
public class StatelessRpc {

    private static final Logger LOG = Logger.getLogger(StatelessRpc.class);
    /** How long a client may reuse the discovery result: it changes only when the server is upgraded. */
    static final long DISCOVER_TTL_MS = 3_600_000L;

    /**
     * The HTTP request around one 2026-07-28 message, and the revision its router resolved from its claim
     * ({@link ProtocolRevision#UNVERSIONED} if it claims none this server speaks statelessly). {@code repeated}: the
     * first of the standard headers the request carries more than once, or null.
     */
    public record Inbound(String requestId, Identity identity, String sourceIp, String userAgent, String correlationId,
            ProtocolRevision revision, VersionHeader version, String methodHeader, String nameHeader, String repeated) {
    }

    private final ResourcePipeline pipeline;
    private final ResourceMethods methods;
    private final ObjectMapper json;

    StatelessRpc(ResourcePipeline pipeline, ResourceMethods methods, ObjectMapper json) {
        this.pipeline = pipeline;
        this.methods = methods;
        this.json = json;
    }

    /** The answer to one 2026-07-28 POST (never a listen: {@link ListenRequests} serves those). */
    public Answer handle(JsonNode root, Inbound in) {
        Check check = check(root, in);
        if (check instanceof Check.Answered a) {
            return a.answer();
        }
        Check.Passed c = (Check.Passed) check;
        try {
            if (ResourceMethods.METHODS.contains(c.method())) {
                return methods.call(c.method(), c.id(), c.params(), c.ctx(), in.revision(), null);
            }
            if ("server/discover".equals(c.method())) {
                return new Answer(new JsonRpc.Result(c.id(), discover()), 200, Map.of());
            }
            // Tools, prompts, and what 2026-07-28 removed (initialize, ping, logging/setLevel, resources/subscribe...).
            return WireErrors.error(STATELESS, c.id(), ErrorCodes.METHOD_NOT_FOUND, "Method not found: " + WireErrors.shorten(c.method()),
                    in.requestId(), 404);
        } catch (Refusal r) {
            return WireErrors.refusal(STATELESS, c.id(), r, c.ctx().codes(), in.requestId());
        } catch (MalformedParams e) {
            return reject(c.ctx(), c.id(), JsonRpc.Named.of(root), e.refusal());
        } catch (McpError e) {
            return WireErrors.error(STATELESS, c.id(), e, in.requestId());
        } catch (RuntimeException e) {
            LOG.errorf(e, "internal error in request %s", in.requestId());
            return WireErrors.error(STATELESS, c.id(), ErrorCodes.INTERNAL_ERROR, "Internal error", in.requestId(), 200);
        }
    }

    /**
     * Steps 2 to 6 of the checks: the refusal's {@link Answer} (or 202 for a notification), else the
     * request that passed them.
     */
    Check check(JsonNode root, Inbound in) {
        JsonRpc.Read read = JsonRpc.read(root, STATELESS);
        if (read instanceof JsonRpc.Invalid invalid) {
            return new Check.Answered(reject(context(in, ProtocolRevision.UNVERSIONED, null), invalid.id(),
                    JsonRpc.Named.of(root), Malformed.invalidRequest(invalid.message(), 400)));
        }
        if (!(read instanceof JsonRpc.Request request)) {
            // A notification (the client's notifications/cancelled when it closes a listen stream), or a response (this
            // server sends no requests, so there is nothing to match it to): nothing to do.
            return new Check.Answered(Answer.accepted());
        }
        JsonNode id = request.id();
        String method = request.method();
        JsonNode params = request.params();
        String problem = Envelope.problem(params);
        if (problem != null) {
            return refuse(context(in, ProtocolRevision.UNVERSIONED, null), id, method, params, new BadFraming(
                    "invalid-envelope", ErrorCodes.INVALID_PARAMS, "Invalid params: " + problem, problem, Map.of()));
        }
        Envelope envelope = Envelope.of(params);
        String requested = envelope.protocolVersion();
        String versionHeader = RequestHeaders.trim(in.version().value());
        boolean supported = in.revision() != ProtocolRevision.UNVERSIONED;
        RequestContext ctx = context(in, in.revision(), envelope.clientInfo());
        if (versionHeader != null && !versionHeader.equals(requested)) {
            String why = "MCP-Protocol-Version header value '" + WireErrors.shorten(versionHeader)
                    + "' does not match _meta protocolVersion '" + WireErrors.shorten(requested) + "'";
            return refuse(ctx, id, method, params, BadFraming.headerMismatch(why));
        }
        if (!supported) {
            var data = new LinkedHashMap<String, Object>();
            data.put("supported", ProtocolRevision.SUPPORTED);
            data.put("requested", requested);
            return refuse(ctx, id, method, params, new BadFraming("unsupported-version",
                    WireErrors.UNSUPPORTED_PROTOCOL_VERSION, "Unsupported protocol version",
                    "requested version " + WireErrors.shorten(requested), data));
        }
        // Joined, "a" and "b.bin" would read as "a,b.bin": a proxy that goes by the first line sees another name.
        String why = versionHeader == null ? "MCP-Protocol-Version header is required"
                : in.repeated() != null ? in.repeated() + " header given more than once"
                : RequestHeaders.methodMismatch(in.methodHeader(), method);
        if (why == null && "resources/read".equals(method)) {
            // Without a uri to compare (absent, or not a string: invalid params, below), the header is still required.
            why = params.path("uri").isTextual() ? RequestHeaders.nameMismatch(in.nameHeader(), params.get("uri").asText())
                    : in.nameHeader() == null ? RequestHeaders.nameMismatch(null, null) : null;
        }
        if (why != null) {
            return refuse(ctx, id, method, params, BadFraming.headerMismatch(why));
        }
        return new Check.Passed(id, method, params, ctx);
    }

    /**
     * A framing refusal: audited (its only record), then answered with 400, once that record has committed (a
     * summary, past the caller's attempt limit, within its window). A caller whose rate limit is spent gets 429.
     */
    private Check refuse(RequestContext ctx, JsonNode id, String method, JsonNode params, BadFraming why) {
        JsonNode uri = params != null ? params.path("uri") : null;
        RecordedRefusal record;
        try {
            record = pipeline.rejectFraming(ctx, method, actionOf(method), uri != null && uri.isTextual() ? uri.asText() : null,
                    why.outcome(), why.code(), why.detail());
        } catch (Refusal r) {
            return new Check.Answered(WireErrors.refusal(STATELESS, id, r, ctx.codes(), ctx.requestId()));
        }
        return new Check.Answered(WireErrors.recorded(STATELESS, id, record, why.code(), why.message(), why.data(), 400,
                ctx.requestId()));
    }

    /**
     * The answer to a 2026-07-28 POST whose body is not one JSON value in UTF-8 (step 1; {@code why} a short fixed
     * phrase): refused as at step 2.
     */
    public Answer unparsed(String why, Inbound in) {
        return reject(context(in, ProtocolRevision.UNVERSIONED, null), null, JsonRpc.Named.NOTHING, Malformed.parseError(why));
    }

    /**
     * A request refused before it could be read as one (steps 1 and 2): audited and paid for as a framing refusal is
     * ({@link ResourcePipeline#rejectMalformed}), then answered once its record has committed.
     */
    private Answer reject(RequestContext ctx, JsonNode id, JsonRpc.Named named, Malformed why) {
        return why.refuse(STATELESS, pipeline, ctx, id, named);
    }

    private static RequestContext context(Inbound in, ProtocolRevision revision, String clientInfo) {
        return new RequestContext(in.requestId(), in.identity(), in.sourceIp(), in.userAgent(), null, in.correlationId(),
                clientInfo, revision.pipeline());
    }

    /** The policy action a resource method takes, for the record of a refusal; null for anything else. */
    private static Action actionOf(String method) {
        return switch (method) {
            case "resources/read", "completion/complete" -> Action.READ;
            case "resources/list", "resources/templates/list" -> Action.LIST;
            case "subscriptions/listen" -> Action.SUBSCRIBE;
            default -> null;
        };
    }

    /**
     * {@code server/discover}: the versions spoken, the capabilities, and the server's identity. The same for
     * every caller and no content, so {@code public}: a shared cache may hold it.
     */
    private ObjectNode discover() {
        ObjectNode r = json.createObjectNode();
        r.put("resultType", "complete");
        r.set("supportedVersions", json.valueToTree(ProtocolRevision.SUPPORTED));
        r.set("capabilities", json.valueToTree(ServerInfo.CAPABILITIES));
        r.put("instructions", ServerInfo.INSTRUCTIONS);
        r.put("ttlMs", DISCOVER_TTL_MS);
        r.put("cacheScope", CacheHint.PUBLIC);
        r.set("_meta", StatelessResults.meta(json));
        return r;
    }
}
