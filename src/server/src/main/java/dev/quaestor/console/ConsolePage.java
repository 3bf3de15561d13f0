package dev.quaestor.console;

import io.quarkus.qute.TemplateInstance;
import jakarta.enterprise.context.RequestScoped;

/** A console page: what every page shows (who is signed in, how, the menu, the CSRF token). */
@RequestScoped
public class ConsolePage {

    private final ConsoleAccess access;
    private final CsrfToken csrf;

    ConsolePage(ConsoleAccess access, CsrfToken csrf) {
        this.access = access;
        this.csrf = csrf;
    }

    /** What the page shows around its content, titled. */
    public Chrome chrome(String title) {
        String subject = access.identity().subject();
        return new Chrome(title, subject, access.authContext(), access.isAuditor(),
                access.mayOpen(ConsoleAccess.Area.CASES), csrf.token(subject));
    }

    /** A type-safe template's instance given the page's chrome (for templates that declare no {@link Chrome} parameter). */
    public TemplateInstance of(TemplateInstance instance, String title) {
        return instance.data("chrome", chrome(title));
    }

    /** Refuses a form whose CSRF token is missing or not the caller's (the refusal is recorded). */
    public void checkCsrf(String token, String method) {
        if (!csrf.accepts(token, access.identity().subject())) {
            throw access.refuse(dev.quaestor.audit.record.AuditEvent.Kind.AUDIT_READ, method, "csrf-refused",
                    "form without a valid CSRF token", 403, "This form was refused: it did not carry the CSRF token of your sign-in. "
                            + "Reload the page and try again.");
        }
    }
}
