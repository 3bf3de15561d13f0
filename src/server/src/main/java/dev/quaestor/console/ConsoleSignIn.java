package dev.quaestor.console;

import dev.quaestor.admin.StaffAccess;
import dev.quaestor.audit.record.AuditEvent;
import dev.quaestor.audit.AuditLog;
import dev.quaestor.audit.record.RequestIds;
import dev.quaestor.identity.AuthContext;
import dev.quaestor.identity.Identity;
import dev.quaestor.identity.IdentityMapper;
import io.quarkus.oidc.AuthenticationCompletionAction;
import io.smallrye.mutiny.Uni;
import io.vertx.core.http.CookieSameSite;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;

/**
 * Opens a console session on the server when a person completes the sign-in (the authorization-code flow's return,
 * once the provider's tokens are verified, before Quarkus sets its session cookie): the session's token goes to the
 * browser in {@link ConsoleCookies#SESSION}, and the sign-in is recorded ({@code AUTHENTICATION},
 * {@code console/sign-in}, with how the person signed in and which session it opened). Nothing of the kind is
 * issued to a request that has not signed in. If the session cannot be stored or the record committed, the sign-in
 * fails.
 */
@ApplicationScoped
public class ConsoleSignIn implements AuthenticationCompletionAction {

    private final ConsoleSessions sessions;
    private final ConsoleCookies cookies;
    private final IdentityMapper identities;
    private final AuditLog log;

    ConsoleSignIn(ConsoleSessions sessions, ConsoleCookies cookies, IdentityMapper identities, AuditLog log) {
        this.sessions = sessions;
        this.cookies = cookies;
        this.identities = identities;
        this.log = log;
    }

    @Override
    public Uni<Void> action(AuthenticationCompletionContext completed) {
        RoutingContext rc = completed.routingContext();
        String path = rc.request().path();
        if (!ConsoleCookies.covers(path)) {
            return Uni.createFrom().voidItem();
        }
        // The session row and the record are database writes: on a worker thread, never the I/O thread.
        return completed.requestContext().runBlocking(() -> {
            Identity who = identities.of(completed.identity());
            var opened = sessions.open(who.subject(), Instant.now());
            log.append(AuditEvent.of(AuditEvent.Kind.AUTHENTICATION, RequestIds.next())
                    .caller(StaffAccess.caller(who, rc.request(), AuthContext.of(completed.identity())))
                    .method("console/sign-in").decision("ALLOW").outcome("ok").detail("session " + opened.session().ref())
                    .build());
            rc.response().addCookie(cookies.cookie(ConsoleCookies.SESSION, opened.token(), CookieSameSite.LAX));
            return completed.identity();
        }).replaceWithVoid();
    }
}
