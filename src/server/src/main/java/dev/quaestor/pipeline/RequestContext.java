package dev.quaestor.pipeline;

import dev.quaestor.audit.Caller;
import dev.quaestor.identity.Identity;
import dev.quaestor.policy.Facts;

/**
 * One request as the pipeline sees it: a server-issued request id (returned to the client in every
 * error and in {@code X-Request-Id}), the verified caller, where the call came from, what follows
 * the client across requests (an MCP session, or without one the token's {@code sid}/{@code jti}
 * and the client's declared name), and the protocol {@link Revision} it speaks.
 */
public record RequestContext(String requestId, Identity identity, String sourceIp, String userAgent,
        String sessionId, String correlationId, String clientInfo, Revision revision, Facts facts) {

    public RequestContext(String requestId, Identity identity, String sourceIp, String userAgent, String sessionId,
            String correlationId, String clientInfo, Revision revision) {
        this(requestId, identity, sourceIp, userAgent, sessionId, correlationId, clientInfo, revision,
                Facts.now(sourceIp));
    }

    public String protocolVersion() {
        return revision.name();
    }

    public ReasonCodes codes() {
        return revision.codes();
    }

    public Caller caller() {
        return identity.caller(sourceIp, userAgent).inSession(sessionId).following(correlationId, clientInfo);
    }

    int code(Reason reason) {
        return codes().codeFor(reason);
    }
}
