package dev.quaestor.cases;

import io.quarkus.qute.TemplateData;
import java.time.Instant;

/** A line of the case list: what the case is and how much it groups. */
@TemplateData
public record CaseSummary(long id, String title, String createdBy, Instant createdAt, int members, int searches, int requests,
        int notes) {

    static CaseSummary of(AuditCase c) {
        return new CaseSummary(c.id, c.title, c.createdBy, c.createdAt, c.members.size(), c.searches.size(), c.requests.size(),
                c.notes.size());
    }
}
