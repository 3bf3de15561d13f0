package dev.quaestor.policy.whatif;

import dev.quaestor.policy.whatif.WhatIfReport.RoleTally;
import java.util.HashSet;
import java.util.List;

/**
 * The report as a pull-request comment. A pull request is read more widely than the audit log, so this shows
 * counts by recorded role and URI prefix only: never a subject, never a request id, never a full URI.
 */
public final class ReportMarkdown {

    private ReportMarkdown() {
    }

    public static String render(WhatIfReport r) {
        var s = r.summary();
        var out = new StringBuilder();
        out.append("### Policy what-if\n\n");
        out.append("Revision `").append(ReportTable.shortRev(s.currentRevision())).append("` → `")
                .append(ReportTable.shortRev(s.proposedRevision())).append("`, replayed over ").append(s.from()).append(" – ")
                .append(s.to()).append(": ").append(s.records()).append(" requests (").append(s.facts())
                .append(" distinct facts).\n\n");
        if (r.guardCrossed()) {
            var guards = new HashSet<String>();
            r.guardHits().forEach(g -> guards.add(g.guard()));
            out.append("**Guard crossed:** ").append(String.join(", ", guards.stream().sorted().toList()))
                    .append(". A gain, or a possible gain not judged, falls under a guarded resource.\n\n");
        }
        if (r.byRole().isEmpty()) {
            out.append("No recorded request would get another answer.\n\n");
        } else {
            out.append("| change | roles | URI prefix | requests |\n|---|---|---|---:|\n");
            for (RoleTally t : r.byRole()) {
                out.append("| ").append(t.change()).append(" | ").append(t.roles().isEmpty() ? "(none)" : cell(t.roles()))
                        .append(" | `").append(cell(t.prefix())).append("` | ").append(t.requests()).append(" |\n");
            }
            out.append('\n');
        }
        List<String> notes = new java.util.ArrayList<>();
        if (s.listingRecords() > 0) {
            notes.add(s.listingRecords() + " listings are not judged per entry (their entries are not recorded)");
        }
        if (!r.notJudged().isEmpty()) {
            notes.add("not judged: the answer depends on what a record does not hold ("
                    + String.join(", ", r.notJudged().stream().flatMap(u -> u.missing().stream()).distinct().sorted().toList())
                    + ")");
        }
        var c = r.check();
        notes.add("recorded decisions replayed under their own revision: " + c.records() + " requests, " + c.mismatched()
                + " mismatches" + (c.withoutRevision() > 0 ? ", " + c.withoutRevision() + " under revisions not at hand" : ""));
        notes.forEach(n -> out.append("- ").append(n).append('\n'));
        return out.toString();
    }

    /** Table cells hold no pipe and no line break. */
    private static String cell(String s) {
        return s.replace("|", "\\|").replace("`", "'").replace('\n', ' ');
    }
}
