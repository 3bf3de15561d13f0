package dev.quaestor.mcp.session;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeType;
import com.fasterxml.jackson.databind.node.NullNode;
import dev.quaestor.audit.record.AuditUnavailableException;
import dev.quaestor.audit.record.Caller;
import dev.quaestor.audit.record.RequestIds;
import dev.quaestor.audit.refusals.RecordedRefusal;
import dev.quaestor.identity.Identity;
import dev.quaestor.mcp.limits.BatchBytes;
import dev.quaestor.mcp.limits.Cap;
import dev.quaestor.mcp.limits.CapRefusals;
import dev.quaestor.mcp.limits.SubjectLimitsConfig;
import dev.quaestor.mcp.limits.TransportConfig;
import dev.quaestor.mcp.resources.ResourceMethods;
import dev.quaestor.mcp.wire.Answer;
import dev.quaestor.mcp.wire.ClientInfo;
import dev.quaestor.mcp.wire.ErrorCodes;
import dev.quaestor.mcp.wire.JsonRpc;
import dev.quaestor.mcp.wire.Malformed;
import dev.quaestor.mcp.wire.MalformedParams;
import dev.quaestor.mcp.wire.McpError;
import dev.quaestor.mcp.wire.McpHeaders;
import dev.quaestor.mcp.wire.ProtocolRevision;
import dev.quaestor.mcp.wire.RateHeaders;
import dev.quaestor.mcp.wire.Schema;
import dev.quaestor.mcp.wire.ServerInfo;
import dev.quaestor.mcp.wire.VersionHeader;
import dev.quaestor.mcp.wire.WireErrors;
import dev.quaestor.pipeline.Refusal;
import dev.quaestor.pipeline.RequestContext;
import dev.quaestor.pipeline.ResourcePipeline;
import dev.quaestor.pipeline.Served;
import dev.quaestor.ratelimit.RateCheck;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.jboss.logging.Logger;

import static dev.quaestor.mcp.wire.Generation.SESSION;

/**
 * MCP 2025 requests (2025-03-26, 2025-06-18, 2025-11-25): {@code initialize} opens a session (audited,
 * {@code SESSION_OPEN}) and every later request names it in {@code Mcp-Session-Id}. The session's
 * negotiated revision governs what its requests may do:
 *
 * <p>Opening a session pays a rate-limit token as any request does, and a subject holds at most
 * {@code quaestor.limits.per-subject.sessions} live sessions (past it: 429 / -32004, on record).
 *
 * <ul>
 *   <li>An {@code MCP-Protocol-Version} header, when present, must name a 2025 revision this server speaks
 *       (else 400). It need not be the negotiated one: the 2025-11-25 transport requires a 400 only for an
 *       invalid or unsupported version, and says the client SHOULD (not MUST) send the negotiated one. The
 *       session's revision still decides how the request is served, so a mismatching header changes nothing.</li>
 *   <li>JSON-RPC batches only on a 2025-03-26 session: 2025-06-18 removed them (400, -32600). A batch holds at most
 *       {@code quaestor.http.max-batch} messages (else 400, -32600, before anything in it is done), and each of its
 *       requests pays for itself: the request path charges every element its own token. Its answer holds at most
 *       {@code quaestor.http.max-batch-bytes} of content ({@link BatchBytes}): a read that would not fit is refused
 *       inside the batch (-32600), never held.</li>
 * </ul>
 *
 * <p>A message refused before it could be read as a request (a body that is not one JSON value, -32700; one that is
 * not a JSON-RPC 2.0 message, a batch that is empty, too large, on a revision without batches, or holding a
 * 2026-07-28 request, -32600) is audited and paid for as any refusal is ({@link ResourcePipeline#rejectMalformed}),
 * and answered once its record has committed. So is one refused before it is served: no {@code Mcp-Session-Id}
 * (400, -32600), a session its subject has no live one by (404, {@code session-unknown}, under the id it named), a
 * refused {@code MCP-Protocol-Version} header ({@code unsupported-version}), an {@code initialize} without an id
 * (400, -32600) or without {@code params.protocolVersion} (-32602, {@code invalid-params}) or inside a batch of a
 * session (-32600), and params that are not an object (-32602). A method not found (-32601) is answered unrecorded, as
 * on 2026-07-28.
 */
@ApplicationScoped
public class SessionRpc {

    private static final Logger LOG = Logger.getLogger(SessionRpc.class);
    /** The outcome recorded for a POST naming no live session of its subject. */
    static final String SESSION_UNKNOWN = "session-unknown";

    /** The HTTP request around one 2025 POST, GET or DELETE. */
    public record Inbound(String requestId, Identity identity, String sourceIp, String userAgent, Instant tokenExpiry,
            String sessionHeader, VersionHeader version) {

        /** Who made the request, in the session {@code s}. */
        public Caller callerIn(SessionStore.Session s) {
            return identity.caller(sourceIp, userAgent).inSession(s.id()).following(null, s.clientInfo());
        }
    }

    private final SessionStore sessions;
    private final SessionAudit sessionAudit;
    private final ResourcePipeline pipeline;
    private final ResourceMethods methods;
    private final int maxBatch;
    private final long maxBatchBytes;
    private final int maxSessions;
    private final CapRefusals caps;

    SessionRpc(SessionStore sessions, SessionAudit sessionAudit, ResourcePipeline pipeline, ResourceMethods methods,
            TransportConfig transport, SubjectLimitsConfig limits, CapRefusals caps) {
        this.maxSessions = limits.sessions();
        this.caps = caps;
        this.sessions = sessions;
        this.sessionAudit = sessionAudit;
        this.pipeline = pipeline;
        this.methods = methods;
        this.maxBatch = transport.maxBatch();
        this.maxBatchBytes = transport.maxBatchBytes();
    }

    /**
     * The answer to one 2025 POST: one message's {@link Answer}, or for a batch one whose body is the list of
     * answers. A body-less answer is sent as its status alone (202 accepted, 404 unknown session).
     */
    public Answer post(JsonNode root, Inbound in) {
        String rid = in.requestId();
        List<JsonNode> items = new ArrayList<>();
        boolean batch = root.isArray();
        if (batch) {
            root.forEach(items::add);
            if (items.isEmpty()) {
                return rejectBeforeSession(in, Malformed.invalidRequest("Empty batch", 400));
            }
            if (items.size() > maxBatch) {
                return rejectBeforeSession(in, Malformed.invalidRequest("Batch too large: " + items.size()
                        + " messages; at most " + maxBatch, Map.of("maxBatch", maxBatch), 400));
            }
        } else {
            items.add(root);
        }
        if (!batch && "initialize".equals(root.path("method").asText(null))) {
            return initialize(root, in);
        }
        String sessionId = in.sessionHeader();
        if (sessionId == null || sessionId.isBlank()) {
            return rejectBeforeSession(in, idOf(root), JsonRpc.Named.of(root),
                    Malformed.invalidRequest("Missing Mcp-Session-Id header; call initialize first", 400));
        }
        Optional<SessionStore.Session> found;
        try {
            found = sessions.use(sessionId, in.identity().subject(), in.tokenExpiry());
        } catch (RuntimeException e) {
            // The session store is the database: if it cannot answer, fail closed like the audit log.
            LOG.errorf("session lookup failed for request %s: %s", rid, e.toString());
            return WireErrors.error(SESSION, idOf(root), ErrorCodes.UNAVAILABLE, "Service unavailable", rid, 503);
        }
        if (found.isEmpty()) {
            return unknownSession(in, root);
        }
        SessionStore.Session session = found.get();
        if (in.version().refusedOnSessions()) {
            return reject(context(in, session, rid), idOf(root), JsonRpc.Named.of(root), Malformed.unsupportedVersion(
                    "Unsupported MCP-Protocol-Version: " + WireErrors.shorten(in.version().value().strip())));
        }
        ProtocolRevision revision = session.revision();
        if (batch && !revision.allowsBatches()) {
            return reject(context(in, session, rid), NullNode.instance, JsonRpc.Named.NOTHING, Malformed.invalidRequest(
                    "JSON-RPC batches are not supported on " + session.revision().name()
                            + " (2025-06-18 removed them); send one message per request", 400));
        }
        var answers = new ArrayList<Answer>();
        BatchBytes held = batch ? new BatchBytes(maxBatchBytes) : null;
        for (int i = 0; i < items.size(); i++) {
            RequestContext ctx = context(in, session, i == 0 ? rid : RequestIds.next());
            answers.add(handle(items.get(i), ctx, revision, held));
        }
        return batch ? Answer.batch(answers) : answers.get(0);
    }

    private Answer initialize(JsonNode root, Inbound in) {
        String rid = in.requestId();
        JsonNode id = root.get("id");
        if (id == null || !(id.isTextual() || id.isIntegralNumber())) {
            return rejectBeforeSession(in, NullNode.instance, JsonRpc.Named.of(root),
                    Malformed.invalidRequest("initialize must be a request with an id", 400));
        }
        JsonNode params = root.get("params");
        JsonNode version = params == null ? null : params.get("protocolVersion");
        if (version == null || version.isNull()) {
            return rejectBeforeSession(in, id, JsonRpc.Named.of(root),
                    Malformed.invalidParams("initialize needs params.protocolVersion", 200));
        }
        if (!version.isTextual() || version.asText().isBlank()) {
            // 42 or "" would otherwise be read as a revision this server does not know, and negotiated down
            return rejectBeforeSession(in, id, JsonRpc.Named.of(root), Malformed.invalidParams(
                    "initialize needs params.protocolVersion to be a string naming a revision, such as 2025-06-18", 200));
        }
        String requested = version.asText();
        ProtocolRevision revision = ProtocolRevision.negotiate(requested);
        String clientInfo = ClientInfo.of(params.get("clientInfo"));
        RequestContext opening = sessionless(in, revision, clientInfo);
        RateCheck rate;
        try {
            rate = pipeline.chargeSession(opening);
        } catch (Refusal r) {
            return WireErrors.refusal(SESSION, id, r, opening.codes(), rid);
        }
        SessionStore.Session session;
        try {
            var opened = sessions.open(in.identity().subject(), revision, clientInfo, in.tokenExpiry(), maxSessions);
            if (opened.isEmpty()) {
                // Retry-After: when one of its sessions ends by itself at the earliest, not a few seconds on.
                long wait = sessions.untilOneFrees(in.identity().subject()).toSeconds();
                return caps.answer(SESSION, id, Cap.SESSIONS, opening.caller(), new CapRefusals.AtCap("initialize",
                        "at most " + maxSessions + " live sessions per subject", rid, (int) Math.min(Integer.MAX_VALUE, wait)));
            }
            session = opened.get();
        } catch (RuntimeException e) {
            LOG.errorf("cannot open session for request %s: %s", rid, e.toString());
            return WireErrors.error(SESSION, id, ErrorCodes.UNAVAILABLE, "Service unavailable", rid, 503);
        }
        try {
            sessionAudit.opened(rid, context(in, session, rid).caller(), session);
        } catch (AuditUnavailableException e) {
            // Never given out unrecorded: the row is ended at once (the sweep deletes it).
            try {
                sessions.end(session.id(), session.subject());
            } catch (RuntimeException again) {
                LOG.warnf("unrecorded session could not be ended: %s", again.toString());
            }
            return WireErrors.error(SESSION, id, ErrorCodes.UNAVAILABLE, "Service unavailable: the audit log cannot record the opening of an MCP session",
                    Map.of(), rid, 503, Map.of("Retry-After", "5"));
        }
        var result = new Schema.InitializeResult(revision.name(), ServerInfo.CAPABILITIES, ServerInfo.IMPLEMENTATION,
                ServerInfo.INSTRUCTIONS);
        var headers = new java.util.LinkedHashMap<>(RateHeaders.of(rate));
        headers.put(McpHeaders.SESSION, session.id());
        return new Answer(new JsonRpc.Result(id, result), 200, headers);
    }

    /**
     * A request in no session: {@code initialize}, or one refused before any session is looked up (which names no
     * revision, {@link ProtocolRevision#UNVERSIONED}, and no session, whatever its {@code Mcp-Session-Id} says).
     */
    private static RequestContext sessionless(Inbound in, ProtocolRevision revision, String clientInfo) {
        return new RequestContext(in.requestId(), in.identity(), in.sourceIp(), in.userAgent(), null, null, clientInfo,
                revision.pipeline());
    }

    private static RequestContext context(Inbound in, SessionStore.Session session, String requestId) {
        return new RequestContext(requestId, in.identity(), in.sourceIp(), in.userAgent(), session.id(), null,
                session.clientInfo(), session.revision().pipeline());
    }

    /** One message of a session's POST, in the context it is served in (its own request id within a batch). */
    private Answer handle(JsonNode node, RequestContext ctx, ProtocolRevision revision, BatchBytes batch) {
        String requestId = ctx.requestId();
        JsonRpc.Read read = JsonRpc.read(node, SESSION);
        if (read instanceof JsonRpc.Invalid invalid) {
            return reject(ctx, invalid.id(), JsonRpc.Named.of(node), Malformed.invalidRequest(invalid.message(), 200));
        }
        if (!(read instanceof JsonRpc.Request request)) {
            // A notification (notifications/initialized, cancellations) or a response: nothing to do, nothing to answer.
            return Answer.accepted();
        }
        JsonNode id = request.id();
        String method = request.method();
        JsonNode params = request.params();
        if (params != null && params.getNodeType() != JsonNodeType.OBJECT) {
            return reject(ctx, id, JsonRpc.Named.of(node), Malformed.invalidParams("params must be an object", 200));
        }
        try {
            if (ResourceMethods.METHODS.contains(method)) {
                return methods.call(method, id, params, ctx, revision, batch);
            }
            return switch (method) {
                case "ping" -> new Answer(new JsonRpc.Result(id, Map.of()), 200, Map.of());
                case "initialize" -> reject(ctx, id, JsonRpc.Named.of(node),
                        Malformed.invalidRequest("Session is already initialized", 200));
                case "resources/subscribe" -> empty(id, pipeline.subscribe(ctx, ResourceMethods.uri(params)));
                case "resources/unsubscribe" -> empty(id, pipeline.unsubscribe(ctx, ResourceMethods.uri(params)));
                default -> WireErrors.error(SESSION, id, ErrorCodes.METHOD_NOT_FOUND, "Method not found: " + WireErrors.shorten(method),
                        requestId, 200);
            };
        } catch (Refusal r) {
            return WireErrors.refusal(SESSION, id, r, ctx.codes(), requestId);
        } catch (MalformedParams e) {
            return reject(ctx, id, JsonRpc.Named.of(node), e.refusal());
        } catch (McpError e) {
            return WireErrors.error(SESSION, id, e, requestId);
        } catch (RuntimeException e) {
            LOG.errorf(e, "internal error in request %s", requestId);
            return WireErrors.error(SESSION, id, ErrorCodes.INTERNAL_ERROR, "Internal error", requestId, 200);
        }
    }

    /** The answer to a 2025 POST whose body is not one JSON value in UTF-8 ({@code why}, a short fixed phrase). */
    public Answer unparsed(String why, Inbound in) {
        return rejectBeforeSession(in, Malformed.parseError(why));
    }

    /** The answer to a JSON-RPC batch holding a 2026-07-28 request (that revision has no batches). */
    public Answer mixedBatch(Inbound in) {
        return rejectBeforeSession(in,
                Malformed.invalidRequest("A JSON-RPC batch cannot carry 2026-07-28 requests (that revision has no batches)", 400));
    }

    /** A POST refused as a whole before its session is looked up: its id, if any, cannot be read. */
    private Answer rejectBeforeSession(Inbound in, Malformed why) {
        return rejectBeforeSession(in, NullNode.instance, JsonRpc.Named.NOTHING, why);
    }

    /** A POST refused before any session is looked up ({@code initialize}'s own, or one that names no session). */
    private Answer rejectBeforeSession(Inbound in, JsonNode id, JsonRpc.Named named, Malformed why) {
        return reject(sessionless(in, ProtocolRevision.UNVERSIONED, null), id, named, why);
    }

    /**
     * A POST naming no live session of its subject (never opened, ended, expired, forgotten, or another subject's):
     * 404 without a body, which tells the client to initialize again. Audited and paid for as any door refusal, under
     * the session id it named, cut to the audit column's width; no JSON-RPC code is sent, so none is recorded.
     */
    private Answer unknownSession(Inbound in, JsonNode root) {
        RequestContext ctx = SessionlessRefusals.contextOf(in);
        JsonRpc.Named what = JsonRpc.Named.of(root);
        JsonNode id = idOf(root);
        RecordedRefusal record;
        try {
            record = pipeline.rejectMalformed(ctx, what.method(), what.uri(), SESSION_UNKNOWN, null,
                    "no live session of this subject by that id");
        } catch (Refusal r) {
            return WireErrors.refusal(SESSION, id, r, ctx.codes(), ctx.requestId());
        }
        Answer gone = new Answer(null, 404, Map.of());
        return record.merged() ? WireErrors.afterCommit(SESSION, record, gone, id, ctx.requestId()) : gone;
    }

    /**
     * A message refused before it could be read as a request (its body, its JSON-RPC, its batch's shape): audited and
     * paid for ({@link ResourcePipeline#rejectMalformed}), then answered once its record has committed.
     */
    private Answer reject(RequestContext ctx, JsonNode id, JsonRpc.Named named, Malformed why) {
        return why.refuse(SESSION, pipeline, ctx, id, named);
    }

    private static Answer empty(JsonNode id, Served<Void> served) {
        return new Answer(new JsonRpc.Result(id, Map.of()), 200, RateHeaders.of(served.rate()))
                .ifUndelivered(served.undelivered());
    }

    static JsonNode idOf(JsonNode root) {
        JsonNode id = root.isObject() ? root.get("id") : null;
        return id == null ? NullNode.instance : id;
    }
}
