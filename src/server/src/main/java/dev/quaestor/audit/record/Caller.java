package dev.quaestor.audit.record;

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

    /**
     * A caller known by subject and where the request came from, with no token at hand: someone whose console
     * session is ended by its cookie alone.
     */
    public static Caller bySubject(String subject, String sourceIp, String userAgent) {
        return new Caller(subject, null, null, List.of(), sourceIp, userAgent, null, null, null, null);
    }

    /** The client of a 2025 session, known by the session alone: for what happens to it apart from any request. */
    public static Caller ofSession(String subject, String sessionId, String clientInfo) {
        return new Caller(subject, null, null, List.of(), null, null, sessionId, null, clientInfo, null);
    }

    /** This caller in the MCP session {@code sessionId}. */
    public Caller inSession(String sessionId) {
        return new Caller(subject, client, tenant, roles, sourceIp, userAgent, sessionId, correlationId, clientInfo,
                authContext);
    }

    /** This caller followed without a session: by {@code correlationId}, and the client's declared {@code clientInfo}. */
    public Caller following(String correlationId, String clientInfo) {
        return new Caller(subject, client, tenant, roles, sourceIp, userAgent, sessionId, correlationId, clientInfo,
                authContext);
    }

    /** This caller, authenticated as {@code authContext} says ({@code acr=…;amr=…}). */
    public Caller authenticatedBy(String authContext) {
        return new Caller(subject, client, tenant, roles, sourceIp, userAgent, sessionId, correlationId, clientInfo,
                authContext);
    }
}
