package dev.quaestor.mcp.transport;

import dev.quaestor.http.SourceAddress;
import dev.quaestor.identity.Identity;
import dev.quaestor.mcp.wire.McpHeaders;
import dev.quaestor.mcp.wire.ProtocolRevision;
import dev.quaestor.pipeline.RequestContext;
import io.vertx.core.http.HttpServerRequest;

/**
 * The context a request refused at the door is recorded under, from its headers alone (its body was not read whole):
 * no protocol revision, and the {@code Mcp-Session-Id} it named, cut to the audit column's width.
 */
final class DoorContext {

    /** The audit column's width for a session id (what {@code session-unknown} records are cut to as well). */
    private static final int SESSION_COLUMN = 128;

    private DoorContext() {
    }

    static RequestContext of(HttpServerRequest request, Identity identity, String requestId) {
        String session = request.getHeader(McpHeaders.SESSION);
        return new RequestContext(requestId, identity, SourceAddress.of(request), request.getHeader("User-Agent"),
                session == null || session.length() <= SESSION_COLUMN ? session : session.substring(0, SESSION_COLUMN),
                null, null, ProtocolRevision.UNVERSIONED.pipeline());
    }
}
