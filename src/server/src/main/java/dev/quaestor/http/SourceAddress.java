package dev.quaestor.http;

import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpVersion;
import io.vertx.core.net.SocketAddress;

/**
 * The one rule for a request's source address, the address audit records, per-address limits and policy conditions
 * ({@code sourceCidrs}) use: the connection's peer, unless that peer is one of the proxies listed in
 * {@code quaestor.http.forwarded.trusted-proxies}; then the client that proxy names in its forwarding header, read
 * from the right up to the first hop that is not a trusted proxy ({@link TrustedProxies}), or no address at all when
 * that header names none that can be believed (never the proxy's own). Nothing is believed by default, and Quarkus's
 * own proxy forwarding, which would believe a header from anyone, may not be turned on ({@link ForwardedAddresses}).
 *
 * <p>A forwarding header is a trusted proxy's word only on a message that proxy wrote. HTTP/2 in clear text (h2c)
 * from a trusted proxy is not one: a client can ask for the upgrade to h2c through a proxy that passes {@code Upgrade}
 * on (ingress-nginx does, by default), and from the {@code 101} on the proxy relays bytes, so every later request on
 * that connection is the client's own, headers and all. Such a request has no source address; the proxies are to
 * speak HTTP/1.1, or HTTP/2 over TLS, to the server.
 */
public final class SourceAddress {

    /** Published at start-up by {@link ForwardedAddresses}; until then no one is believed. */
    private static volatile TrustedProxies trusted = TrustedProxies.NONE;

    private SourceAddress() {
    }

    /**
     * The request's source address, or null when there is none: the connection has none (say, a Unix domain socket),
     * a trusted proxy's forwarding header leaves the client unknown, or the request came from a trusted proxy over h2c.
     */
    public static String of(HttpServerRequest request) {
        SocketAddress peer = request.remoteAddress();
        String address = peer == null ? null : peer.hostAddress();
        TrustedProxies t = trusted;
        if (t.none()) {
            return address;
        }
        if (address != null && request.version() == HttpVersion.HTTP_2 && !request.isSSL() && t.trusted(address)) {
            return null;
        }
        return t.client(address, request.headers());
    }

    static void trust(TrustedProxies proxies) {
        trusted = proxies;
    }
}
