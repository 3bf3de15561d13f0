package dev.quaestor.mcp.limits;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.quaestor.audit.record.AuditEvent;
import dev.quaestor.audit.record.AuditUnavailableException;
import dev.quaestor.audit.record.Caller;
import dev.quaestor.audit.refusals.RecordedRefusal;
import dev.quaestor.audit.refusals.RefusalRecorder;
import dev.quaestor.audit.record.RequestIds;
import dev.quaestor.identity.AddressBlock;
import dev.quaestor.http.RouteRefusal;
import dev.quaestor.http.SourceAddress;
import dev.quaestor.identity.Identity;
import dev.quaestor.identity.IdentityMapper;
import dev.quaestor.mcp.wire.Answer;
import dev.quaestor.mcp.wire.ErrorCodes;
import dev.quaestor.mcp.wire.Generation;
import dev.quaestor.mcp.wire.McpHeaders;
import dev.quaestor.mcp.wire.WireErrors;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.security.identity.SecurityIdentity;
import io.quarkus.vertx.http.runtime.security.QuarkusHttpUser;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.ws.rs.core.Response;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import org.jboss.logging.Logger;

/**
 * Refusals at a {@link Cap}: each is recorded through the {@link RefusalRecorder} (on its own while the subject is
 * under its attempt limit, past it merged into one summary per window, so a flood writes bounded records), counted
 * in {@code quaestor.limits.refused} by cap, and answered only once its record has committed; if it cannot be
 * recorded the caller gets 503 / -32005 instead. A refusal at the audit queue share is always merged: its own record
 * would need the queue share it was refused for.
 */
@ApplicationScoped
public class CapRefusals {

    private static final Logger LOG = Logger.getLogger(CapRefusals.class);
    static final String UNRECORDED = "Service unavailable: the audit log cannot record this request";

    private final RefusalRecorder refusals;
    private final IdentityMapper identities;
    private final ObjectMapper json;
    private final Map<Cap, Counter> counters = new EnumMap<>(Cap.class);

    CapRefusals(RefusalRecorder refusals, IdentityMapper identities, ObjectMapper json, MeterRegistry metrics) {
        this.refusals = refusals;
        this.identities = identities;
        this.json = json;
        for (Cap cap : Cap.values()) {
            counters.put(cap, Counter.builder("quaestor.limits.refused").tag("cap", cap.tag)
                    .description("Requests refused at a cap or deadline before any work was done for them").register(metrics));
        }
    }

    /** The verified caller of a request in an HTTP filter after authentication; null if it has none. */
    public Identity identity(RoutingContext rc) {
        if (!(rc.user() instanceof QuarkusHttpUser user)) {
            return null;
        }
        SecurityIdentity security = user.getSecurityIdentity();
        if (security == null || security.isAnonymous()) {
            return null;
        }
        try {
            return identities.of(security);
        } catch (RuntimeException e) {
            // A bearer token naming no subject never gets here: authentication refuses it (UnmappableTokens, 401 on
            // record), oversized body or not.
            return null;
        }
    }

    /** The key a caller's per-subject places are counted under: its subject, else its address's block (an IPv6 /64). */
    public static String key(Identity identity, RoutingContext rc) {
        if (identity != null) {
            return identity.subject();
        }
        return "address:" + Objects.requireNonNullElse(AddressBlock.of(SourceAddress.of(rc.request())), "unknown");
    }

    /** Who made an HTTP request: the verified identity if there is one, else only where it came from. */
    public static Caller caller(Identity identity, RoutingContext rc) {
        String ip = SourceAddress.of(rc.request());
        String userAgent = rc.request().getHeader("User-Agent");
        String session = rc.request().getHeader(McpHeaders.SESSION);
        if (identity == null) {
            return Caller.anonymous(ip, userAgent, session);
        }
        return identity.caller(ip, userAgent).inSession(session);
    }

    /**
     * Records a refusal at {@code cap}; throws {@link AuditUnavailableException} if it cannot be queued.
     * {@code detail} says which bound it met (in the record, never told to the caller).
     */
    RecordedRefusal record(Cap cap, Caller caller, String method, String detail) {
        return record(cap, caller, method, detail, RequestIds.next());
    }

    private RecordedRefusal record(Cap cap, Caller caller, String method, String detail, String requestId) {
        counters.get(cap).increment();
        AuditEvent event = AuditEvent.of(AuditEvent.Kind.DECISION, requestId).caller(caller).method(method)
                .decision("DENY").outcome(cap.outcome()).errorCode(cap.code).detail(detail).build();
        return cap == Cap.AUDIT_QUEUE ? refusals.merge(event) : refusals.record(event);
    }

    /**
     * Answers an HTTP request (in an HTTP filter, on its I/O thread) with a refusal at {@code cap}, once it is on
     * record; {@code close}: the connection is closed after the answer (its unread body makes it unusable).
     */
    public void send(RoutingContext rc, Cap cap, Caller caller, String detail, boolean close) {
        String method = rc.request().method().name() + " " + rc.request().path();
        RecordedRefusal record;
        try {
            record = record(cap, caller, method, detail);
        } catch (AuditUnavailableException e) {
            write(rc, 503, 5, errorBody(ErrorCodes.UNAVAILABLE, UNRECORDED, null, 0), null, close);
            return;
        }
        Context here = Vertx.currentContext();
        record.committed().whenComplete((v, e) -> {
            Runnable answer = () -> {
                if (e == null) {
                    write(rc, cap.status, cap.retryAfterSeconds,
                            errorBody(cap.code, cap.message, record.requestId(), cap.retryAfterSeconds), record.requestId(), close);
                } else {
                    LOG.warnf("a refusal at %s could not be recorded; answered with 503: %s", cap.tag, e.toString());
                    write(rc, 503, 5, errorBody(ErrorCodes.UNAVAILABLE, UNRECORDED, null, 0), null, close);
                }
            };
            if (here == null) {
                answer.run();
            } else {
                here.runOnContext(x -> answer.run());
            }
        });
    }

    /** A refusal at {@code cap} as a JAX-RS response, complete once it is on record. */
    public CompletionStage<Response> response(Cap cap, Caller caller, String method, String detail) {
        RecordedRefusal record;
        try {
            record = record(cap, caller, method, detail);
        } catch (AuditUnavailableException e) {
            return CompletableFuture.completedFuture(unrecordedResponse());
        }
        return record.committed().handle((v, e) -> {
            if (e != null) {
                return unrecordedResponse();
            }
            var b = Response.status(cap.status).type("application/json").header(McpHeaders.REQUEST_ID, record.requestId())
                    .entity(errorBody(cap.code, cap.message, record.requestId(), cap.retryAfterSeconds));
            if (cap.retryAfterSeconds > 0) {
                b.header("Retry-After", Integer.toString(cap.retryAfterSeconds));
            }
            return b.build();
        });
    }

    /** A refusal at {@code cap} as a JSON-RPC answer in the generation's shape (sent once it is on record). */
    public Answer answer(Generation generation, JsonNode id, Cap cap, Caller caller, String method, String detail,
            String requestId) {
        return answer(generation, id, cap, caller, new AtCap(method, detail, requestId, cap.retryAfterSeconds));
    }

    /** What was refused at a cap: the method, the detail on record, the request id, and when to try again (0: no hint). */
    public record AtCap(String method, String detail, String requestId, int retryAfterSeconds) {
    }

    /** As above, telling the client to try again after {@code refused.retryAfterSeconds()} rather than the cap's own. */
    public Answer answer(Generation generation, JsonNode id, Cap cap, Caller caller, AtCap refused) {
        String method = refused.method();
        String detail = refused.detail();
        String requestId = refused.requestId();
        int retryAfter = refused.retryAfterSeconds();
        RecordedRefusal record;
        try {
            record = record(cap, caller, method, detail, requestId);
        } catch (AuditUnavailableException e) {
            return WireErrors.error(generation, id, ErrorCodes.UNAVAILABLE, UNRECORDED, Map.of(), requestId, 503,
                    Map.of("Retry-After", "5"));
        }
        Answer answer = WireErrors.error(generation, id, cap.code, cap.message, data(retryAfter), record.requestId(), cap.status,
                headers(retryAfter));
        return WireErrors.afterCommit(generation, record, answer, id, record.requestId());
    }

    private static Map<String, Object> data(int retryAfterSeconds) {
        return retryAfterSeconds > 0 ? Map.of("retryAfterSeconds", retryAfterSeconds) : Map.of();
    }

    private static Map<String, String> headers(int retryAfterSeconds) {
        return retryAfterSeconds > 0 ? Map.of("Retry-After", Integer.toString(retryAfterSeconds)) : Map.of();
    }

    private Response unrecordedResponse() {
        return Response.status(503).type("application/json").header("Retry-After", "5")
                .entity(errorBody(ErrorCodes.UNAVAILABLE, UNRECORDED, null, 0)).build();
    }

    /** A JSON-RPC error with a null id: the request's own id is not known (its body was not read, or not parsed). */
    private String errorBody(int code, String message, String requestId, int retryAfterSeconds) {
        var data = new LinkedHashMap<String, Object>();
        if (retryAfterSeconds > 0) {
            data.put("retryAfterSeconds", retryAfterSeconds);
        }
        if (requestId != null) {
            data.put("requestId", requestId);
        }
        var error = new LinkedHashMap<String, Object>();
        error.put("code", code);
        error.put("message", message);
        error.put("data", data);
        var body = new LinkedHashMap<String, Object>();
        body.put("jsonrpc", "2.0");
        body.put("id", null);
        body.put("error", error);
        try {
            return json.writeValueAsString(body);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    private static void write(RoutingContext rc, int status, int retryAfterSeconds, String body, String requestId, boolean close) {
        var refusal = new RouteRefusal(status).header("Content-Type", "application/json");
        if (retryAfterSeconds > 0) {
            refusal.header("Retry-After", Integer.toString(retryAfterSeconds));
        }
        if (requestId != null) {
            refusal.header(McpHeaders.REQUEST_ID, requestId);
        }
        refusal.send(rc, body, close);
    }
}
