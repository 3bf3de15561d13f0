package dev.quaestor.mcp.transport;

import com.fasterxml.jackson.databind.JsonNode;
import dev.quaestor.http.SourceAddress;
import dev.quaestor.identity.Identity;
import dev.quaestor.identity.IdentityMapper;
import dev.quaestor.mcp.limits.BodyBudget;
import dev.quaestor.mcp.limits.Cap;
import dev.quaestor.mcp.limits.CapRefusals;
import dev.quaestor.mcp.wire.Answer;
import dev.quaestor.mcp.wire.ErrorCodes;
import dev.quaestor.mcp.wire.McpHeaders;
import dev.quaestor.mcp.wire.TextResponse;
import dev.quaestor.mcp.wire.VersionHeader;
import dev.quaestor.mcp.wire.WireErrors;
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
 * read, and its body parsed as JSON. The first that fails answers the request.
 */
@ApplicationScoped
class PostIntake {

    /** What a POST became at the door: a parsed body and the request around it, or the response refusing it. */
    sealed interface Intake {
    }

    /** A POST read and parsed, with its {@code MCP-Protocol-Version} header read once. */
    record Parsed(JsonNode root, VersionHeader version, Identity identity, String sourceIp, String userAgent, boolean sse)
            implements Intake {
    }

    /** The response refusing a POST, complete once its record, if any, has committed. */
    record Refused(CompletionStage<Response> response) implements Intake {
    }

    private final SecurityIdentity security;
    private final IdentityMapper identities;
    private final RequestBodyReader bodies;
    private final JsonBodies jsonBodies;
    private final BodyBudget bodyBudget;
    private final AdmissionLimit admission;
    private final RequiredScopes scopes;
    private final CapRefusals caps;
    private final AnswerResponses answers;

    PostIntake(SecurityIdentity security, IdentityMapper identities, RequestBodyReader bodies, JsonBodies jsonBodies,
            BodyBudget bodyBudget, AdmissionLimit admission, RequiredScopes scopes, CapRefusals caps, AnswerResponses answers) {
        this.security = security;
        this.identities = identities;
        this.bodies = bodies;
        this.jsonBodies = jsonBodies;
        this.bodyBudget = bodyBudget;
        this.admission = admission;
        this.scopes = scopes;
        this.caps = caps;
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
        if (contentType != null && !contentType.toLowerCase().startsWith("application/json")) {
            return refused(TextResponse.of(415, "Content-Type must be application/json", requestId));
        }
        String sourceIp = SourceAddress.of(request);
        String userAgent = headers.getHeaderString(HttpHeaders.USER_AGENT);
        CompletionStage<Response> scope = scopes.refuse(identity, request, requestId, sourceIp, userAgent);
        if (scope != null) {
            return new Refused(scope);
        }
        VersionHeader version = VersionHeader.of(headers.getHeaderString(McpHeaders.PROTOCOL_VERSION));
        JsonNode root = JsonBodies.declaresUtf8(contentType) ? jsonBodies.parse(body) : null;
        if (root == null) {
            Answer a = WireErrors.error(version.generation(), null, ErrorCodes.PARSE_ERROR, "Parse error", requestId, 400);
            return refused(answers.render(a, sse, request, requestId));
        }
        return new Parsed(root, version, identity, sourceIp, userAgent, sse);
    }

    private static Refused refused(Response response) {
        return new Refused(CompletableFuture.completedFuture(response));
    }

    private static boolean acceptsJson(String accept) {
        if (accept == null || accept.isBlank()) {
            return true;
        }
        String a = accept.toLowerCase();
        return a.contains("application/json") || a.contains("*/*") || a.contains("application/*");
    }

    private static boolean acceptsOnlySse(String accept) {
        return accept != null && accept.toLowerCase().contains("text/event-stream") && !acceptsJson(accept);
    }
}
