package dev.quaestor.console;

import dev.quaestor.review.Finding;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.LocalDate;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.StringJoiner;

/**
 * Where a finding of a day's review leads: the search of the records it stands for, on that day (read in the review's
 * zone), oldest first: the person's reads for a spike or reads out of hours, their denials, their rate-limit refusals;
 * the day's refused authentications, integrity or policy records otherwise.
 */
final class FindingLink {

    private FindingLink() {
    }

    static String of(Finding f, LocalDate day, String zone) {
        var q = new StringJoiner("&", "/console/search?", "");
        filters(f).forEach(q::add);
        return q.add("from=" + day).add("to=" + day).add("tz=" + encode(zone)).add("order=oldest").add("size=200").toString();
    }

    /** The same records as a case's search: the filters, and the day in the review's zone as instants (to is exclusive). */
    static String caseSearch(Finding f, LocalDate day, String zone) {
        var q = new StringJoiner("&");
        filters(f).forEach(q::add);
        ZoneId z = ZoneId.of(zone);
        return q.add("from=" + day.atStartOfDay(z).toInstant()).add("to=" + day.plusDays(1).atStartOfDay(z).toInstant()).toString();
    }

    private static List<String> filters(Finding f) {
        var q = new ArrayList<String>();
        if (f.subject != null && !"(none)".equals(f.subject)) {
            q.add("subject=" + encode(f.subject));
        }
        switch (f.category) {
            case "READ_SPIKE", "OFF_HOURS" -> q.addAll(List.of("action=read", "kind=OUTCOME"));
            case "DENIALS" -> q.add("decision=DENY");
            case "RATE_LIMITED" -> q.add("outcome=rate-limited");
            case "FAILED_AUTHENTICATION" -> q.addAll(List.of("kind=AUTHENTICATION", "decision=DENY"));
            case "POLICY_CHANGE" -> q.add("kind=POLICY");
            default -> {
            }
        }
        return q;
    }

    private static String encode(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8);
    }
}
