package dev.quaestor.console;

import io.quarkus.runtime.LaunchMode;
import jakarta.enterprise.context.Initialized;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.net.URI;
import java.util.Optional;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * The console's OIDC redirect URI is {@code quaestor.http.public-url} + {@code /console}
 * ({@code quarkus.oidc.console.authentication.redirect-path}), never something built from a request's Host header,
 * which a client chooses. So in production, with the console on, the server does not start without a public URL, and
 * a public URL that is not a bare {@code scheme://host[:port]} is refused in every profile.
 */
@ApplicationScoped
public class ConsolePublicUrl {

    private static final org.jboss.logging.Logger LOG = org.jboss.logging.Logger.getLogger(ConsolePublicUrl.class);

    /** As the other required settings: before any connection is made, so a refused start writes nothing. */
    void check(@Observes @Initialized(ApplicationScoped.class) Object started,
            @ConfigProperty(name = "quaestor.http.public-url") Optional<String> publicUrl,
            @ConfigProperty(name = "quarkus.oidc.console.tenant-enabled", defaultValue = "true") boolean consoleOn) {
        String problem = problem(publicUrl.orElse(null), consoleOn, LaunchMode.current() == LaunchMode.NORMAL);
        if (problem != null) {
            LOG.error(problem);
            throw new IllegalStateException(problem);
        }
    }

    /** Why the configuration cannot start, or null. */
    static String problem(String publicUrl, boolean consoleOn, boolean production) {
        if (publicUrl == null || publicUrl.isBlank()) {
            return consoleOn && production
                    ? "quaestor.http.public-url (QUAESTOR_HTTP_PUBLIC_URL) is required when the console is enabled: the "
                            + "console's sign-in redirect URI is built from it (e.g. https://quaestor.example.org)"
                    : null;
        }
        URI u;
        try {
            u = new URI(publicUrl);
        } catch (java.net.URISyntaxException e) {
            return "quaestor.http.public-url (QUAESTOR_HTTP_PUBLIC_URL) is not a URL: " + e.getMessage();
        }
        boolean bare = ("https".equals(u.getScheme()) || "http".equals(u.getScheme())) && u.getHost() != null
                && u.getRawUserInfo() == null && (u.getRawPath() == null || u.getRawPath().isEmpty())
                && u.getRawQuery() == null && u.getRawFragment() == null;
        return bare ? null : "quaestor.http.public-url (QUAESTOR_HTTP_PUBLIC_URL) must be scheme://host[:port] with nothing after it (no path, no "
                + "trailing slash), e.g. https://quaestor.example.org; it is '" + publicUrl + "'";
    }
}
