package dev.quaestor.mcp.transport;

import dev.quaestor.http.SourceAddress;
import dev.quaestor.identity.IdentityMapper;
import dev.quaestor.mcp.session.SessionRpc;
import dev.quaestor.mcp.stateless.RequestHeaders;
import dev.quaestor.mcp.stateless.StatelessRpc;
import dev.quaestor.mcp.wire.McpHeaders;
import dev.quaestor.mcp.wire.ProtocolRevision;
import dev.quaestor.mcp.wire.VersionHeader;
import io.quarkus.security.identity.SecurityIdentity;
import io.vertx.core.http.HttpServerRequest;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.ws.rs.core.HttpHeaders;
import java.time.Instant;

/** What each protocol generation is told of the HTTP request around a message: its caller, token and headers. */
@ApplicationScoped
class Inbounds {

    private final SecurityIdentity security;
    private final IdentityMapper identities;

    Inbounds(SecurityIdentity security, IdentityMapper identities) {
        this.security = security;
        this.identities = identities;
    }

    /** A POST to a 2025 session. */
    SessionRpc.Inbound session(HttpHeaders headers, PostIntake.Read p, String requestId) {
        return new SessionRpc.Inbound(requestId, p.identity(), p.sourceIp(), p.userAgent(), tokenExpiry(),
                headers.getHeaderString(McpHeaders.SESSION), p.version());
    }

    /** A GET or DELETE, which only 2025 sessions have. */
    SessionRpc.Inbound session(HttpHeaders headers, HttpServerRequest request, String requestId) {
        return new SessionRpc.Inbound(requestId, identities.of(security), SourceAddress.of(request),
                headers.getHeaderString(HttpHeaders.USER_AGENT), tokenExpiry(), headers.getHeaderString(McpHeaders.SESSION),
                VersionHeader.of(headers.getHeaderString(McpHeaders.PROTOCOL_VERSION)));
    }

    /** A 2026-07-28 POST, with the revision its route resolved ({@link ProtocolRevision#UNVERSIONED}: none). */
    StatelessRpc.Inbound stateless(HttpHeaders headers, PostIntake.Read p, ProtocolRevision revision, String requestId) {
        return new StatelessRpc.Inbound(requestId, p.identity(), p.sourceIp(), p.userAgent(),
                identities.correlationId(security), revision, p.version(),
                headers.getHeaderString(RequestHeaders.METHOD), headers.getHeaderString(RequestHeaders.NAME), repeated(headers));
    }

    /** The first standard header given on more than one line, or null: each must be stated once. */
    private static String repeated(HttpHeaders headers) {
        for (String name : new String[] {McpHeaders.PROTOCOL_VERSION, RequestHeaders.METHOD, RequestHeaders.NAME}) {
            var lines = headers.getRequestHeader(name);
            if (lines != null && lines.size() > 1) {
                return name;
            }
        }
        return null;
    }

    /** When the request's verified token expires, if it says. */
    Instant tokenExpiry() {
        return identities.expiry(security);
    }
}
