package dev.quaestor.console;

import io.quarkus.vertx.http.runtime.filters.Filters;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * With the console's sign-in off ({@code quarkus.oidc.console.tenant-enabled=false}, the prod default unless
 * {@code QUAESTOR_CONSOLE_ENABLED=true}), {@code /console} has no tenant to sign anyone in, and the bearer-token
 * check would answer a bare 401. This says instead, in plain text, that the console is not enabled and which setting
 * turns it on: a 404, since there is no console here, whoever asks. Nothing is read and nobody is signed in, so
 * there is nothing to record.
 */
@ApplicationScoped
public class ConsoleOff {

    static final String MESSAGE = "Not found: the compliance console is not enabled on this deployment (QUAESTOR_CONSOLE_ENABLED).\n"
            + "An administrator turns it on with QUAESTOR_CONSOLE_ENABLED=true, QUAESTOR_CONSOLE_CLIENT_ID and "
            + "QUAESTOR_CONSOLE_CLIENT_SECRET (docs/operations.md, \"The compliance console in production\").\n";

    /** After the Host/Origin guard (1000), before the issuer check (990), the console's cookies (905) and authentication (200). */
    private static final int PRIORITY = 992;

    private final boolean consoleOn;

    ConsoleOff(@ConfigProperty(name = "quarkus.oidc.console.tenant-enabled", defaultValue = "true") boolean consoleOn) {
        this.consoleOn = consoleOn;
    }

    void register(@Observes Filters filters) {
        if (consoleOn) {
            return;
        }
        filters.register(this::filter, PRIORITY);
    }

    private void filter(RoutingContext rc) {
        String path = rc.request().path();
        if (!ConsoleCookies.covers(path)) {
            rc.next();
            return;
        }
        rc.response().setStatusCode(404)
                .putHeader("Content-Type", "text/plain; charset=utf-8")
                .putHeader("Cache-Control", "no-store")
                .end(MESSAGE);
    }
}
