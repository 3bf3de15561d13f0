package dev.quaestor.console;

import dev.quaestor.audit.record.AuditEvent;
import dev.quaestor.audit.record.AuditUnavailableException;
import dev.quaestor.audit.record.Caller;
import dev.quaestor.audit.record.RequestIds;
import dev.quaestor.http.SourceAddress;
import dev.quaestor.identity.UnauthenticatedThrottle;
import io.quarkus.security.AuthenticationCompletionException;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpMethod;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import org.jboss.logging.Logger;

/**
 * A console request whose sign-in no longer verifies: its session cookie opens, but the ID token in it does not verify,
 * most often because a key the identity provider no longer publishes signed it (the provider rotated its keys and
 * dropped the old one; in dev mode, a restart gives the dev provider new ones). Quarkus answers that with a bare 401, where a cookie it cannot open at
 * all is sent to sign in again. Here it is an invalid access attempt like a refused token: recorded
 * ({@code AUTHENTICATION} {@code DENY} {@code console/session}, outcome {@code invalid-token}, no subject, since
 * nothing vouches for one; bounded per address by {@link UnauthenticatedThrottle}), then the console's cookies are
 * cleared and the browser sent to sign in again: a page read (GET) is redirected to itself, which starts a new
 * sign-in, anything else gets 401 with a page saying so. Nothing of the console is shown or done on such a request.
 * If the refusal cannot be recorded, 503.
 */
@ApplicationScoped
public class UnverifiableSession {

    private static final Logger LOG = Logger.getLogger(UnverifiableSession.class);
    static final String PAGE = "<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>Sign in again · Quaestor"
            + " console</title></head><body><p>Your sign-in to the console no longer verifies (most often because the"
            + " identity provider's keys have changed since you signed in). Nothing was done. <a href=\"" + ConsoleCookies.PATH
            + "\">Sign in again</a>, then send the form once more.</p></body></html>";

    private final ConsoleCookies cookies;
    private final UnauthenticatedThrottle throttle;

    UnverifiableSession(ConsoleCookies cookies, UnauthenticatedThrottle throttle) {
        this.cookies = cookies;
        this.throttle = throttle;
    }

    void register(@Observes Router router) {
        // Ahead of Quarkus's failure handler, which would answer 401 with nothing to follow.
        router.route().order(Integer.MIN_VALUE + 1).failureHandler(this::handle);
    }

    private void handle(RoutingContext rc) {
        if (!unverifiable(rc)) {
            rc.next();
            return;
        }
        var request = rc.request();
        var caller = Caller.anonymous(SourceAddress.of(request), request.getHeader("User-Agent"), null);
        var event = AuditEvent.of(AuditEvent.Kind.AUTHENTICATION, RequestIds.next()).caller(caller).method("console/session")
                .decision("DENY").outcome("invalid-token")
                .detail("the sign-in's ID token no longer verifies").build();
        Context here = Vertx.currentContext();
        try {
            var record = throttle.record(event, caller.sourceIp());
            // The record's id, or the summary's it was counted into, as every recorded refusal names its record.
            rc.response().putHeader("X-Request-Id", record.requestId());
            record.committed().whenComplete((done, failed) -> {
                Runnable reply = () -> {
                    if (rc.response().ended() || rc.response().closed()) {
                        return; // the client has gone
                    }
                    if (failed != null) {
                        unrecorded(rc, failed);
                    } else {
                        answer(rc);
                    }
                };
                if (here == null) {
                    reply.run();
                } else {
                    here.runOnContext(v -> reply.run());
                }
            });
        } catch (AuditUnavailableException e) {
            unrecorded(rc, e);
        }
    }

    private void answer(RoutingContext rc) {
        cookies.clear(rc);
        var response = rc.response().putHeader("Cache-Control", "no-store");
        HttpMethod method = rc.request().method();
        if (method == HttpMethod.GET || method == HttpMethod.HEAD) {
            // Without the cleared cookies, the same page starts a new sign-in (and comes back to it after). Its path
            // and query only, never the request line's authority, which a client may send in absolute form.
            String query = rc.request().query();
            response.setStatusCode(302).putHeader("Location", rc.request().path() + (query == null ? "" : "?" + query)).end();
        } else {
            response.setStatusCode(401).putHeader("Content-Type", "text/html; charset=utf-8").end(PAGE);
        }
    }

    private static void unrecorded(RoutingContext rc, Throwable e) {
        LOG.warnf("a console sign-in that no longer verifies could not be recorded; answered with 503: %s", e.toString());
        rc.response().setStatusCode(503).putHeader("Retry-After", "5").putHeader("Cache-Control", "no-store").end();
    }

    /**
     * A console page's sign-in that Quarkus refused with a bare 401 (an {@link AuthenticationCompletionException}: the
     * session cookie opened, but the ID token in it did not verify, whether its key is gone or its signature does not
     * hold), with nothing sent yet. Not a sign-in's return from the provider ({@code code} and {@code state}), whose
     * failures are Quarkus's to answer; not a session Quarkus sends to sign in itself (a cookie it cannot open, a
     * refresh that failed: an {@code AuthenticationFailedException}).
     */
    private static boolean unverifiable(RoutingContext rc) {
        return ConsoleCookies.covers(rc.request().path()) && rc.failure() instanceof AuthenticationCompletionException && !rc.response().headWritten()
                && rc.request().getParam("code") == null && rc.request().getParam("state") == null
                && rc.request().cookies().stream().anyMatch(c -> c.getName().startsWith(ConsoleCookies.OIDC_SESSION));
    }
}
