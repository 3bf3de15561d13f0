package dev.quaestor.mcp.transport;

import com.fasterxml.jackson.databind.JsonNode;
import dev.quaestor.http.SourceAddress;
import dev.quaestor.identity.Identity;
import dev.quaestor.identity.IdentityMapper;
import dev.quaestor.mcp.limits.BodyBudget;
import dev.quaestor.mcp.limits.Cap;
import dev.quaestor.mcp.limits.CapRefusals;
import dev.quaestor.mcp.wire.McpHeaders;
import dev.quaestor.mcp.wire.TextResponse;
import dev.quaestor.mcp.wire.VersionHeader;
import io.quarkus.security.identity.SecurityIdentity;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.Response;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * What every POST passes before its protocol generation serves it, once per request: its body read and paid for,
 * its place in flight, its Accept and Content-Type, the required scopes, its {@code MCP-Protocol-Version} header
 * read, and its body parsed as JSON. The first that fails answers the request, but for the parse: a body that is
 * not one JSON value is answered by the protocol generation its header names, which records it as any refusal of a
 * request it cannot read.
 */
@ApplicationScoped
class PostIntake {

    /** What a POST became at the door: a parsed body and the request around it, or the response refusing it. */
    sealed interface Intake {
    }

    /** A POST past the door's checks of its HTTP, with its {@code MCP-Protocol-Version} header read once. */
    sealed interface Read extends Intake {
        VersionHeader version();

        Identity identity();

        String sourceIp();

        String userAgent();

        boolean sse();
    }

    /** A POST read and parsed. */
    record Parsed(JsonNode root, VersionHeader version, Identity identity, String sourceIp, String userAgent, boolean sse)
            implements Read {
    }

    /**
     * A POST whose body is not exactly one JSON value in UTF-8: answered with -32700 by the generation its
     * {@code MCP-Protocol-Version} header names, which records why ({@code problem}, a short fixed phrase).
     */
    record Unparsed(String problem, VersionHeader version, Identity identity, String sourceIp, String userAgent, boolean sse)
            implements Read {
    }

    /** The response refusing a POST, complete once its record, if any, has committed. */
    record Refused(CompletionStage<Response> response) implements Intake {
    }

    private static final JsonBodies.Read NOT_UTF8_DECLARED = new JsonBodies.Read(null, "Content-Type charset other than UTF-8");

    private final SecurityIdentity security;
    private final IdentityMapper identities;
    private final RequestBodyReader bodies;
    private final JsonBodies jsonBodies;
    private final BodyBudget bodyBudget;
    private final AdmissionLimit admission;
    private final RequiredScopes scopes;
    private final CapRefusals caps;
    private final OversizedBodies oversized;
    private final BrokenBodies broken;
    private final AnswerResponses answers;

    PostIntake(SecurityIdentity security, IdentityMapper identities, RequestBodyReader bodies, JsonBodies jsonBodies,
            BodyBudget bodyBudget, AdmissionLimit admission, RequiredScopes scopes, CapRefusals caps,
            OversizedBodies oversized, BrokenBodies broken, AnswerResponses answers) {
        this.security = security;
        this.identities = identities;
        this.bodies = bodies;
        this.jsonBodies = jsonBodies;
        this.bodyBudget = bodyBudget;
        this.admission = admission;
        this.scopes = scopes;
        this.caps = caps;
        this.oversized = oversized;
        this.broken = broken;
        this.answers = answers;
    }

    Intake read(RoutingContext rc, HttpHeaders headers, HttpServerRequest request, String requestId) {
        Identity identity = identities.of(security);
        byte[] body;
        try {
            body = bodies.body(rc, identity);
        } catch (RequestBodyReader.Refused e) {
            if (e.cap != null) {
                return new Refused(caps.response(e.cap, CapRefusals.caller(identity, rc), "POST /mcp", e.getMessage()));
            }
            if (e.tooLarge != null) {
                return new Refused(oversized.refuse(request, identity, requestId, e.tooLarge)
                        .thenApply(a -> oversized.response(a, requestId, answers, rc)));
            }
            if (e.broken != null) {
                return refused(broken.refuse(request, identity, requestId, e.broken));
            }
            return refused(TextResponse.of(e.status, e.getMessage().strip(), requestId));
        }
        // A large body pays for its size before it is parsed or takes a place in flight.
        if (!bodyBudget.charge(CapRefusals.key(identity, rc), body.length)) {
            return new Refused(caps.response(Cap.BODY_BYTES, CapRefusals.caller(identity, rc), "POST /mcp",
                    bodyBudget.detail(body.length)));
        }
        // Over HTTP/2 the body is read here, so the request takes its place in flight only now (HTTP/1.x: it has one).
        Cap full = admission.admit(rc, identity);
        if (full != null) {
            return new Refused(caps.response(full, CapRefusals.caller(identity, rc), "POST /mcp", admission.detail(full)));
        }
        String accept = headers.getHeaderString(HttpHeaders.ACCEPT);
        boolean sse = acceptsOnlySse(accept);
        if (!sse && !acceptsJson(accept)) {
            return refused(TextResponse.of(406, "Accept must include application/json or text/event-stream", requestId));
        }
        String contentType = headers.getHeaderString(HttpHeaders.CONTENT_TYPE);
        if (contentType != null && !MediaTypes.isJson(contentType)) {
            return refused(TextResponse.of(415, "Content-Type must be application/json", requestId));
        }
        String sourceIp = SourceAddress.of(request);
        String userAgent = headers.getHeaderString(HttpHeaders.USER_AGENT);
        CompletionStage<Response> scope = scopes.refuse(identity, request, requestId, sourceIp, userAgent);
        if (scope != null) {
            return new Refused(scope);
        }
        VersionHeader version = VersionHeader.of(headers.getHeaderString(McpHeaders.PROTOCOL_VERSION));
        JsonBodies.Read json = JsonBodies.declaresUtf8(contentType) ? jsonBodies.read(body) : NOT_UTF8_DECLARED;
        if (json.root() == null) {
            return new Unparsed(json.problem(), version, identity, sourceIp, userAgent, sse);
        }
        return new Parsed(json.root(), version, identity, sourceIp, userAgent, sse);
    }

    private static Refused refused(Response response) {
        return new Refused(CompletableFuture.completedFuture(response));
    }

    private static boolean acceptsJson(String accept) {
        return MediaTypes.quality(accept, MediaTypes.JSON) > 0;
    }

    private static boolean acceptsOnlySse(String accept) {
        return MediaTypes.quality(accept, MediaTypes.EVENT_STREAM) > 0 && !acceptsJson(accept);
    }
}
