package dev.quaestor.console;

import io.quarkus.qute.Template;
import io.quarkus.qute.TemplateInstance;
import jakarta.enterprise.context.RequestScoped;

/** A console page: the template with what every page shows (who is signed in, how, the menu, the CSRF token). */
@RequestScoped
public class ConsolePage {

    private final ConsoleAccess access;
    private final CsrfToken csrf;

    ConsolePage(ConsoleAccess access, CsrfToken csrf) {
        this.access = access;
        this.csrf = csrf;
    }

    public TemplateInstance of(Template template, String title) {
        return of(template.instance(), title);
    }

    /** As {@link #of(Template, String)}, for the instance of a type-safe template ({@code @CheckedTemplate}). */
    public TemplateInstance of(TemplateInstance instance, String title) {
        String subject = access.identity().subject();
        return instance.data("title", title).data("who", subject).data("auth", access.authContext())
                .data("auditor", access.isAuditor()).data("csrf", csrf.token(subject));
    }

    /** Refuses a form whose CSRF token is missing or not the caller's (the refusal is recorded). */
    public void checkCsrf(String token, String method) {
        if (!csrf.accepts(token, access.identity().subject())) {
            throw access.refuse(dev.quaestor.audit.AuditEvent.Kind.AUDIT_READ, method, "csrf-refused",
                    "form without a valid CSRF token", 403, "This form was refused: it did not carry the CSRF token of your sign-in. "
                            + "Reload the page and try again.");
        }
    }
}
