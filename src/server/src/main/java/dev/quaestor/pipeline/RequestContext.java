package dev.quaestor.pipeline;

import dev.quaestor.audit.Caller;
import dev.quaestor.identity.Identity;
import dev.quaestor.policy.Facts;
import java.util.List;
import java.util.TreeSet;

/**
 * One request as the pipeline sees it: a server-issued request id (returned to the client in every
 * error and in {@code X-Request-Id}), the verified caller, where the call came from, and the codes
 * its protocol revision answers refusals with.
 */
public record RequestContext(String requestId, Identity identity, String sourceIp, String userAgent,
        String sessionId, String protocolVersion, ReasonCodes codes, Facts facts) {

    public RequestContext(String requestId, Identity identity, String sourceIp, String userAgent, String sessionId,
            String protocolVersion, ReasonCodes codes) {
        this(requestId, identity, sourceIp, userAgent, sessionId, protocolVersion, codes, Facts.now(sourceIp));
    }

    public Caller caller() {
        return new Caller(identity.subject(), identity.client(), identity.tenant(),
                List.copyOf(new TreeSet<>(identity.roles())), sourceIp, userAgent, sessionId, null, null, null);
    }

    int code(Reason reason) {
        return codes.codeFor(reason);
    }
}
