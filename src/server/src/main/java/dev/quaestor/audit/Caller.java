package dev.quaestor.audit;

import java.util.List;

/**
 * Who made a request and from where, as recorded in the audit log. Never holds token contents.
 *
 * @param sessionId the MCP session (2025 revisions), if any
 * @param correlationId what follows one client without a session: the token's {@code sid}, else its {@code jti}
 * @param clientInfo the MCP client's own name and version ({@code name/version}), as it declared them
 * @param authContext how the caller authenticated, from the token's {@code acr} and {@code amr} ({@code acr=…;amr=…})
 */
public record Caller(String subject, String client, String tenant, List<String> roles, String sourceIp,
        String userAgent, String sessionId, String correlationId, String clientInfo, String authContext) {

    public Caller {
        roles = roles == null ? List.of() : List.copyOf(roles);
    }

    /** A caller known only by where the request came from (no token, or a refused one). */
    public static Caller anonymous(String sourceIp, String userAgent, String sessionId) {
        return new Caller(null, null, null, List.of(), sourceIp, userAgent, sessionId, null, null, null);
    }
}
