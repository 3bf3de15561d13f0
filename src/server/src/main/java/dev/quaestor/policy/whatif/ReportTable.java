package dev.quaestor.policy.whatif;

import dev.quaestor.policy.whatif.WhatIfReport.GuardHit;
import dev.quaestor.policy.whatif.WhatIfReport.Row;
import dev.quaestor.policy.whatif.WhatIfReport.Undecided;
import java.util.List;

/** The report as a reviewer at a terminal reads it: the changes by subject and URI, then by prefix, then the checks. */
public final class ReportTable {

    private ReportTable() {
    }

    public static String render(WhatIfReport r) {
        var s = r.summary();
        var out = new StringBuilder();
        out.append("what-if ").append(shortRev(s.currentRevision())).append(" -> ").append(shortRev(s.proposedRevision()))
                .append(" over ").append(s.from()).append(" .. ").append(s.to()).append('\n');
        out.append("  ").append(s.records()).append(" requests in ").append(s.facts()).append(" distinct facts, each replayed once; ")
                .append(s.unchangedRecords()).append(" unchanged\n");
        out.append("  gained: ").append(requests(r.gained())).append(" requests; lost: ").append(requests(r.lost()))
                .append(" requests; not judged: ").append(r.notJudged().stream().mapToLong(Undecided::requests).sum())
                .append(" requests\n");
        out.append("  listings not judged per entry: ").append(s.listingRecords()).append(" requests (").append(s.listingFacts())
                .append(" facts); refused before judgment: ").append(s.notReplayableRecords()).append(" requests\n");
        if (r.namesWithheld()) {
            out.append("  names withheld (for holders of the auditor role): changes by recorded roles and URI prefix\n");
        }
        changes(out, "GAINED (deny -> allow)", r.gained(), r.namesWithheld());
        changes(out, "LOST (allow -> deny)", r.lost(), r.namesWithheld());
        if (!r.notJudged().isEmpty()) {
            out.append("\nNOT JUDGED (the answer depends on what the record does not hold)\n");
            boolean named = !r.namesWithheld();
            var t = new TextTable(named ? "subject" : "roles", "action", named ? "uri" : "uri prefix", "#requests", "depends on");
            for (Undecided u : r.notJudged()) {
                String dependsOn = String.join(", ", u.missing()) + (u.mayGain() ? " (may gain)" : "");
                t.row(named ? u.subject() : roles(u.roles()), u.action(), u.uri(), u.requests(), dependsOn);
            }
            t.appendTo(out);
        }
        if (!r.byPrefix().isEmpty()) {
            out.append("\nBY URI PREFIX\n");
            var t = new TextTable("change", "prefix", "#requests", "#subjects");
            r.byPrefix().forEach(p -> t.row(p.change(), p.prefix(), p.requests(), p.subjects()));
            t.appendTo(out);
        }
        var c = r.check();
        out.append("\nrecorded decisions replayed under their own revision: ").append(c.records()).append(" requests, ")
                .append(c.mismatched()).append(" mismatches");
        if (c.withoutRevision() > 0) {
            out.append("; ").append(c.withoutRevision()).append(" requests under revisions not at hand: ")
                    .append(String.join(", ", c.missingRevisions().stream().map(ReportTable::shortRev).toList()));
        }
        out.append('\n');
        c.mismatches().forEach(m -> out.append("  MISMATCH ").append(named(m.subject(), m.action(), m.uri())).append(" recorded ")
                .append(m.recorded()).append(" under ").append(shortRev(m.revision())).append(" (").append(m.requests())
                .append(" requests)\n"));
        if (r.guardHits().isEmpty()) {
            out.append("guards: none crossed\n");
        } else {
            out.append("GUARDS CROSSED\n");
            for (GuardHit g : r.guardHits()) {
                out.append("  ").append(g.guard()).append(" (").append(g.origin()).append("): ").append(g.change()).append(' ')
                        .append(named(g.subject(), g.action(), g.uri())).append(" (").append(g.requests()).append(" requests)\n");
            }
        }
        return out.toString();
    }

    private static void changes(StringBuilder out, String title, List<Row> rows, boolean withheld) {
        if (rows.isEmpty()) {
            return;
        }
        out.append('\n').append(title).append('\n');
        var t = withheld ? new TextTable("roles", "action", "uri prefix", "#requests", "rule (current)", "rule (proposed)")
                : new TextTable("subject", "action", "uri", "#requests", "rule (current)", "rule (proposed)", "example requests");
        for (Row w : rows) {
            if (withheld) {
                t.row(roles(w.roles()), w.action(), w.uri(), w.requests(), rules(w.rulesBefore()), rules(w.rulesAfter()));
            } else {
                t.row(w.subject(), w.action(), w.uri(), w.requests(), rules(w.rulesBefore()), rules(w.rulesAfter()),
                        String.join(" ", w.examples()));
            }
        }
        t.appendTo(out);
    }

    /** A subject, action and URI, or the action alone when the names are withheld. */
    private static String named(String subject, String action, String uri) {
        return subject == null && uri == null ? action : subject + " " + action + " " + uri;
    }

    private static String roles(List<String> roles) {
        return roles.isEmpty() ? "(none)" : String.join(",", roles);
    }

    static String rules(List<String> ids) {
        return ids.isEmpty() ? "(default deny)" : String.join(",", ids);
    }

    private static long requests(List<Row> rows) {
        return rows.stream().mapToLong(Row::requests).sum();
    }

    static String shortRev(String rev) {
        return rev == null ? "-" : rev.length() > 12 ? rev.substring(0, 12) : rev;
    }
}
