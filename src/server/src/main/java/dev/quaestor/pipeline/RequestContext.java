package dev.quaestor.pipeline;

import dev.quaestor.audit.record.Caller;
import dev.quaestor.identity.Identity;
import dev.quaestor.policy.Facts;

/**
 * One request as the pipeline sees it: a server-issued request id (returned to the client in every
 * error and in {@code X-Request-Id}), the verified caller, where the call came from, what follows
 * the client across requests (an MCP session, or without one the token's {@code sid}/{@code jti}
 * and the client's declared name), and the protocol revision it speaks ({@link Protocol}).
 */
public record RequestContext(String requestId, Identity identity, String sourceIp, String userAgent,
        String sessionId, String correlationId, String clientInfo, Protocol protocol, Facts facts) {

    public RequestContext(String requestId, Identity identity, String sourceIp, String userAgent, String sessionId,
            String correlationId, String clientInfo, Protocol protocol) {
        this(requestId, identity, sourceIp, userAgent, sessionId, correlationId, clientInfo, protocol,
                Facts.now(sourceIp));
    }

    public String protocolVersion() {
        return protocol.name();
    }

    public ReasonCodes codes() {
        return protocol.codes();
    }

    public Caller caller() {
        return identity.caller(sourceIp, userAgent).inSession(sessionId).following(correlationId, clientInfo);
    }

    int code(Reason reason) {
        return codes().codeFor(reason);
    }
}
