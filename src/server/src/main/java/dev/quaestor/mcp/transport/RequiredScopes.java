package dev.quaestor.mcp.transport;

import dev.quaestor.audit.record.AuditEvent;
import dev.quaestor.audit.record.AuditUnavailableException;
import dev.quaestor.audit.refusals.RecordedRefusal;
import dev.quaestor.audit.refusals.RefusalRecorder;
import dev.quaestor.identity.Identity;
import dev.quaestor.identity.OAuthConfig;
import dev.quaestor.identity.PublicUrl;
import dev.quaestor.mcp.wire.McpHeaders;
import io.vertx.core.http.HttpServerRequest;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.ws.rs.core.Response;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * Step-up authorization: {@code quaestor.oauth.required-scopes} apply to every MCP call, on every revision.
 * A verified token without one of them gets 403 with {@code WWW-Authenticate: Bearer
 * error="insufficient_scope", scope="<required>", resource_metadata="<RFC 9728 document>"}, so that a
 * client can ask its authorization server for a token with more scope. Checked right after authentication,
 * before the request is read as MCP; the refusal is audited ({@code AUTHENTICATION}, {@code DENY},
 * {@code insufficient-scope}) before it is answered: past the caller's attempt limit, counted into a summary
 * ({@link RefusalRecorder}), and then answered once that has committed.
 */
@ApplicationScoped
class RequiredScopes {

    private final List<String> required;
    private final RefusalRecorder refusals;

    RequiredScopes(OAuthConfig config, RefusalRecorder refusals) {
        this.required = List.copyOf(config.requiredScopes().orElse(List.of()));
        this.refusals = refusals;
    }

    /**
     * Null if the caller holds every required scope; else the 403 (or 503 when it cannot be recorded), complete once
     * its record has committed: at once, or within the merge window when it is counted into a summary.
     */
    CompletionStage<Response> refuse(Identity identity, HttpServerRequest request, String requestId, String sourceIp,
            String userAgent) {
        if (required.isEmpty()) {
            return null;
        }
        var missing = new ArrayList<String>();
        for (String s : required) {
            if (!identity.scopes().contains(s)) {
                missing.add(s);
            }
        }
        if (missing.isEmpty()) {
            return null;
        }
        var caller = identity.caller(sourceIp, userAgent).inSession(request.getHeader(McpHeaders.SESSION));
        RecordedRefusal record;
        try {
            record = refusals.record(AuditEvent.of(AuditEvent.Kind.AUTHENTICATION, requestId).caller(caller)
                    .method(request.method().name() + " " + request.path()).decision("DENY").outcome("insufficient-scope")
                    .detail("missing scope " + String.join(" ", missing)).build());
            if (!record.merged()) {
                record.await();
            }
        } catch (AuditUnavailableException e) {
            return CompletableFuture.completedFuture(unrecorded(requestId));
        }
        Response forbidden = forbidden(request, missing, record.requestId());
        return record.merged() ? record.committed().handle((v, e) -> e == null ? forbidden : unrecorded(requestId))
                : CompletableFuture.completedFuture(forbidden);
    }

    private Response forbidden(HttpServerRequest request, List<String> missing, String requestId) {
        String challenge = "Bearer error=\"insufficient_scope\", scope=\"" + String.join(" ", required)
                + "\", resource_metadata=\"" + PublicUrl.of(request) + "/.well-known/oauth-protected-resource/mcp\""
                + ", error_description=\"The token lacks a required scope\"";
        return Response.status(403).type("text/plain").header("WWW-Authenticate", challenge)
                .header(McpHeaders.REQUEST_ID, requestId)
                .entity("Forbidden: the token lacks the scope " + String.join(" ", missing) + "\n").build();
    }

    private static Response unrecorded(String requestId) {
        return Response.status(503).type("text/plain").header("Retry-After", "5")
                .header(McpHeaders.REQUEST_ID, requestId)
                .entity("Service unavailable: the audit log cannot record this request\n").build();
    }
}
