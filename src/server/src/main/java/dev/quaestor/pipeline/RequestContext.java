package dev.quaestor.pipeline;

import dev.quaestor.audit.Caller;
import dev.quaestor.identity.Identity;
import dev.quaestor.policy.Facts;
import java.util.List;

/**
 * One MCP request as the pipeline sees it: a server-issued request id (returned to the client in
 * every error and in {@code X-Request-Id}), the verified caller and where the call came from.
 */
public record RequestContext(String requestId, Identity identity, String sourceIp, String userAgent,
        String sessionId, String protocolVersion, Facts facts) {

    public RequestContext(String requestId, Identity identity, String sourceIp, String userAgent, String sessionId,
            String protocolVersion) {
        this(requestId, identity, sourceIp, userAgent, sessionId, protocolVersion, Facts.now(sourceIp));
    }

    public Caller caller() {
        return new Caller(identity.subject(), identity.client(), identity.tenant(),
                List.copyOf(new java.util.TreeSet<>(identity.roles())), sourceIp, userAgent, sessionId);
    }
}
