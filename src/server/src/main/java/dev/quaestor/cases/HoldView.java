package dev.quaestor.cases;

import io.quarkus.qute.TemplateData;
import java.time.Instant;

/**
 * A legal hold as staff see it: what it covers, who put it, and where its release stands ({@code state}: {@code active},
 * {@code release asked} or {@code released}).
 */
@TemplateData
public record HoldView(long id, long caseId, HoldScope scope, String target, Instant from, Instant to, String reason,
        String createdBy, Instant createdAt, String releaseAskedBy, Instant releaseAskedAt, String releaseReason,
        String releasedBy, Instant releasedAt, String state) {

    static HoldView of(LegalHold h) {
        return new HoldView(h.id, h.auditCase.id, h.scope, h.target, h.from, h.to, h.reason, h.createdBy, h.createdAt,
                h.releaseAskedBy, h.releaseAskedAt, h.releaseReason, h.releasedBy, h.releasedAt,
                h.releasedAt != null ? "released" : h.releaseAskedAt != null ? "release asked" : "active");
    }
}
