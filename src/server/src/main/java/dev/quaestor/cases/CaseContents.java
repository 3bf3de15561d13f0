package dev.quaestor.cases;

import java.util.List;

/** What a case is about, to select its records (for evidence, for a hold): its request ids and its searches. */
public record CaseContents(long caseId, String title, List<String> requestIds, List<SearchFilters> searches) {
}
