package dev.quaestor.cases;

import io.quarkus.qute.TemplateData;
import java.time.Instant;

/** A line of the case list: what the case is and how much it groups. */
@TemplateData
public record CaseSummary(long id, String title, String createdBy, Instant createdAt, long members, long searches, long requests,
        long notes) {
}
