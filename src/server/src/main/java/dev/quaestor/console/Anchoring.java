package dev.quaestor.console;

import dev.quaestor.audit.config.AuditConfig;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Named;

/**
 * Whether this deployment anchors its checkpoints with a time-stamping authority ({@code quaestor.audit.anchor.tsa-url}
 * set), as the pages' offline check commands need it: {@code --tsa-ca tsa-root.pem} is printed only then, since the
 * verifier refuses a root file that the reader, whose deployment has no TSA, cannot have.
 */
@ApplicationScoped
@Named("anchoring")
public class Anchoring {

    private final boolean on;

    Anchoring(AuditConfig audit) {
        this.on = audit.anchor().tsaUrl().isPresent();
    }

    /** Whether checkpoints are time-stamped here. */
    public boolean on() {
        return on;
    }
}
