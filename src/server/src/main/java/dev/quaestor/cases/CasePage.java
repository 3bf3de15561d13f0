package dev.quaestor.cases;

import io.quarkus.qute.TemplateData;
import java.util.List;

/**
 * A page of the cases a member of staff sees, newest first; {@code next} is the {@code before} of the next page, or null
 * on the last.
 */
@TemplateData
public record CasePage(List<CaseSummary> cases, Long next) {
}
