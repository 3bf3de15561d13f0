package dev.quaestor.console;

import dev.quaestor.audit.read.LastVerification;
import io.quarkus.qute.TemplateInstance;
import jakarta.enterprise.context.RequestScoped;
import org.jboss.resteasy.reactive.server.core.CurrentRequestManager;
import org.jboss.resteasy.reactive.server.core.multipart.FormData;

/** A console page: what every page shows (who is signed in, how, the menu, the CSRF token, the last integrity check's finding). */
@RequestScoped
public class ConsolePage {

    private final ConsoleAccess access;
    private final CsrfToken csrf;
    private final LastVerification verified;

    ConsolePage(ConsoleAccess access, CsrfToken csrf, LastVerification verified) {
        this.access = access;
        this.csrf = csrf;
        this.verified = verified;
    }

    /** What the page shows around its content, titled. */
    public Chrome chrome(String title) {
        String subject = access.identity().subject();
        return new Chrome(title, subject, access.authContext(), access.isAuditor(),
                access.mayOpen(ConsoleAccess.Area.CASES), csrf.token(subject), IntegrityNotice.of(verified.latest()));
    }

    /** A type-safe template's instance given the page's chrome (for templates that declare no {@link Chrome} parameter). */
    public TemplateInstance of(TemplateInstance instance, String title) {
        return instance.data("chrome", chrome(title));
    }

    /**
     * Refuses a form whose CSRF token is missing or not the caller's, or that gives a field more than once (each handler
     * reads a field's first value: a second note text or scope would be dropped unseen). Each refusal is recorded.
     */
    public void checkCsrf(String token, String method) {
        if (!csrf.accepts(token, access.identity().subject())) {
            throw access.refuse(dev.quaestor.audit.record.AuditEvent.Kind.AUDIT_READ, method, "csrf-refused",
                    "form without a valid CSRF token", 403, "This form was refused: it did not carry the CSRF token of your sign-in. "
                            + "Reload the page and try again.");
        }
        FormData form = CurrentRequestManager.get() == null ? null : CurrentRequestManager.get().getFormData();
        for (String field : form == null ? java.util.Set.<String>of() : form) {
            int given = form.get(field).size();
            if (given > 1) {
                String name = VisibleText.of(field.length() <= 64 ? field : field.substring(0, 64) + "…");
                throw access.refuse(dev.quaestor.audit.record.AuditEvent.Kind.AUDIT_READ, method, "invalid",
                        "form field '" + name + "' given " + given + " times", 400, "This form was refused: its field '" + name
                                + "' is given " + given + " times, and only one would have been read. Send each field once.");
            }
        }
    }
}
