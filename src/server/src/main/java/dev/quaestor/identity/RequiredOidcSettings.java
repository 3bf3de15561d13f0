package dev.quaestor.identity;

import io.quarkus.runtime.LaunchMode;
import io.quarkus.runtime.StartupEvent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import org.eclipse.microprofile.config.ConfigProvider;

/**
 * In production the issuer and the audience that bearer tokens are checked against come only from the environment
 * ({@code QUAESTOR_OIDC_ISSUER}, {@code QUAESTOR_OIDC_AUDIENCE}). Without the issuer every token would be refused
 * with a bare 401; without the audience a token the issuer made for any other service would be accepted. Neither is
 * a state to serve in, so the server does not start, and says which variable is missing.
 */
@ApplicationScoped
public class RequiredOidcSettings {

    void check(@Observes StartupEvent started) {
        var config = ConfigProvider.getConfig();
        String problem = problem(config.getOptionalValue("quarkus.oidc.auth-server-url", String.class).orElse(null),
                config.getOptionalValue("quarkus.oidc.token.audience", String.class).orElse(null),
                LaunchMode.current() == LaunchMode.NORMAL);
        if (problem == null && LaunchMode.current() == LaunchMode.NORMAL) {
            problem = advertisedNotAccepted(config.getOptionalValue("quaestor.oauth.resource", String.class).orElse(null),
                    config.getOptionalValue("quarkus.oidc.token.audience", String.class).orElse(""));
        }
        if (problem != null) {
            throw new IllegalStateException(problem);
        }
    }

    /**
     * Why a configured resource identifier cannot be served, or null: clients ask the issuer for a token for the
     * resource the metadata advertises (RFC 8707, RFC 9728), so a resource that is not among the audiences accepted
     * would get every such token refused.
     */
    static String advertisedNotAccepted(String resource, String audiences) {
        if (resource == null || resource.isBlank()) {
            return null;
        }
        for (String audience : audiences.split(",")) {
            if (audience.trim().equals(resource.trim())) {
                return null;
            }
        }
        return "quaestor.oauth.resource (" + resource + ") is the resource clients are told to ask tokens for, but it is"
                + " not among the audiences tokens are accepted for (QUAESTOR_OIDC_AUDIENCE: " + audiences + "): add it"
                + " there (a comma-separated list), or advertise one of those";
    }

    /** Why the configuration cannot start, or null. */
    static String problem(String issuer, String audience, boolean production) {
        if (!production) {
            return null;
        }
        if (issuer == null || issuer.isBlank()) {
            return "QUAESTOR_OIDC_ISSUER is not set: the OIDC issuer whose tokens this server accepts "
                    + "(e.g. https://idp.example.org/realms/quaestor; discovery and keys are fetched from it)";
        }
        if (audience == null || audience.isBlank()) {
            return "QUAESTOR_OIDC_AUDIENCE is not set: the audience every token must carry, this server's resource "
                    + "indicator (e.g. quaestor); without it a token issued for another service would be accepted";
        }
        return null;
    }
}
