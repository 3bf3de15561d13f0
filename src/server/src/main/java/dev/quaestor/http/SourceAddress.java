package dev.quaestor.http;

import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.net.SocketAddress;

/**
 * The one rule for a request's source address, the address audit records, per-address limits and policy conditions
 * ({@code sourceCidrs}) use: the host address of the connection's peer, as Vert.x reports it. Headers a client sends
 * ({@code Forwarded}, {@code X-Forwarded-For}) are never read here; only Quarkus's own proxy settings
 * ({@code quarkus.http.proxy.*}), when an operator sets them for a trusted proxy, put a forwarded address in the
 * peer's place before this reads it.
 */
public final class SourceAddress {

    private SourceAddress() {
    }

    /** The request's source address, or null when the connection has none (say, a Unix domain socket). */
    public static String of(HttpServerRequest request) {
        SocketAddress peer = request.remoteAddress();
        return peer == null ? null : peer.hostAddress();
    }
}
