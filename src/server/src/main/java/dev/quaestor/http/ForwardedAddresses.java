package dev.quaestor.http;

import io.quarkus.runtime.StartupEvent;
import jakarta.annotation.Priority;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import org.eclipse.microprofile.config.ConfigProvider;
import org.jboss.logging.Logger;

/**
 * Sets up the rule {@link SourceAddress} reads addresses by, at start-up: the trusted proxies from
 * {@link ForwardedConfig}. The server does not start with Quarkus's own proxy forwarding on
 * ({@code quarkus.http.proxy.proxy-address-forwarding}): it would put the left-most address of a forwarding header,
 * which any client can write, in the connection's place before this rule could see the peer.
 */
@ApplicationScoped
public class ForwardedAddresses {

    private static final Logger LOG = Logger.getLogger(ForwardedAddresses.class);

    private final ForwardedConfig config;

    ForwardedAddresses(ForwardedConfig config) {
        this.config = config;
    }

    /** Early, so that nothing that reads addresses at start-up sees another rule. */
    void start(@Observes @Priority(1) StartupEvent started) {
        String problem = problem(ConfigProvider.getConfig()
                .getOptionalValue("quarkus.http.proxy.proxy-address-forwarding", Boolean.class).orElse(false));
        if (problem != null) {
            throw new IllegalStateException(problem);
        }
        TrustedProxies proxies = TrustedProxies.of(config);
        SourceAddress.trust(proxies);
        if (!proxies.none()) {
            LOG.infof("client addresses are read through %s from the proxies %s", config.header(),
                    config.trustedProxies().orElseThrow());
        }
    }

    /** Why the forwarding settings cannot start, or null. */
    static String problem(boolean quarkusForwarding) {
        if (quarkusForwarding) {
            return "quarkus.http.proxy.proxy-address-forwarding is on: it would believe a forwarded address from any client."
                    + " Turn it off and list the proxies whose forwarding header is believed in"
                    + " quaestor.http.forwarded.trusted-proxies (QUAESTOR_HTTP_FORWARDED_TRUSTED_PROXIES)";
        }
        return null;
    }
}
