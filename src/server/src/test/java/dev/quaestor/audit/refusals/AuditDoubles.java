package dev.quaestor.audit.refusals;

import dev.quaestor.audit.record.AuditUnavailableException;
import dev.quaestor.audit.write.PendingCommit;

import java.util.concurrent.CompletableFuture;

/** Commits as a unit test's fake audit log hands them out: already durable, or already failed. */
public final class AuditDoubles {

    private AuditDoubles() {
    }

    public static PendingCommit committed() {
        return new PendingCommit(CompletableFuture.completedFuture(null), 1000);
    }

    public static PendingCommit failed(String why) {
        return new PendingCommit(CompletableFuture.failedFuture(new AuditUnavailableException(new IllegalStateException(why))),
                1000);
    }

    /** A refusal recorded on its own, under its own request id, and durable. */
    public static RecordedRefusal recorded(String requestId) {
        return new RecordedRefusal(requestId, CompletableFuture.completedFuture(null), false, 1000);
    }
}
