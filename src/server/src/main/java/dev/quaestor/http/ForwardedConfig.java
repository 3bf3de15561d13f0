package dev.quaestor.http;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.util.List;
import java.util.Optional;

/**
 * Which proxies' forwarding headers are believed ({@link SourceAddress}): none unless listed. Behind an ingress that
 * ends TLS, list the ingress controller's addresses here, or every client has the ingress's address.
 */
@ConfigMapping(prefix = "quaestor.http.forwarded")
public interface ForwardedConfig {

    /**
     * The proxies whose forwarding header is believed, as addresses or CIDR blocks ({@code 10.42.0.0/16}). Unset:
     * none, and every request's source address is its connection's peer.
     */
    Optional<List<String>> trustedProxies();

    /**
     * The header those proxies write: {@code x-forwarded-for} (ingress-nginx and most others) or {@code forwarded}
     * (RFC 7239). Only that one is read; a client's copy of the other passes through the proxy unread.
     */
    @WithDefault("x-forwarded-for")
    Header header();

    enum Header {
        X_FORWARDED_FOR, FORWARDED
    }
}
