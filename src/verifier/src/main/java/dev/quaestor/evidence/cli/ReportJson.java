package dev.quaestor.evidence.cli;

import dev.quaestor.evidence.check.Problem;
import dev.quaestor.evidence.check.Report;
import dev.quaestor.evidence.write.FlatJsonWriter;
import java.util.List;
import java.util.StringJoiner;

/** {@code verify --json}: the report as one JSON object: verdict, counts, logs' summaries, problems, warnings. */
final class ReportJson {

    static String of(Report r) {
        return object("verified", r.ok(), "records", r.records(), "covered", r.covered(), "logs", r.logs(), "problems", r.problems(), "warnings",
                r.warnings()) + "\n";
    }

    private static String json(Object value) {
        if (value instanceof Report.Summary s) {
            return object("log", s.log(), "records", s.records(), "firstSeq", s.firstSeq(), "lastSeq", s.lastSeq(), "formats",
                    s.formats(), "checkpoints", s.checkpoints(), "signedThrough", s.signedThrough(),
                    "unsignedTail", s.unsignedTail(), "anchors", s.anchors(),
                    "anchoredThrough", s.anchoredThrough(), "anchoredAt", s.anchoredAt(), "archivedThrough", s.archivedThrough(),
                    "nodes", s.nodes(), "broken", s.broken(), "anchorGapSeconds", s.anchorGap() == null ? null
                            : s.anchorGap().getSeconds(), "anchorGapSeq", s.anchorGapSeq());
        }
        if (value instanceof Problem p) {
            return object("kind", p.kind(), "log", p.log(), "seq", p.seq(), "line", p.line(), "message", p.message(), "expected",
                    p.evidence().expected(), "found", p.evidence().found(), "involved", p.evidence().involved());
        }
        if (value instanceof Problem.Involved i) {
            return object("what", i.what(), "line", i.line());
        }
        if (value instanceof List<?> list) {
            var array = new StringJoiner(",", "[", "]");
            list.forEach(item -> array.add(json(item)));
            return array.toString();
        }
        if (value == null || value instanceof Number || value instanceof Boolean) {
            return String.valueOf(value);
        }
        var out = new StringBuilder();
        FlatJsonWriter.string(value.toString(), out);
        return out.toString();
    }

    /** An object of {@code names} and values, alternately, in that order. */
    private static String object(Object... namesAndValues) {
        var object = new StringJoiner(",", "{", "}");
        for (int i = 0; i < namesAndValues.length; i += 2) {
            object.add("\"" + namesAndValues[i] + "\":" + json(namesAndValues[i + 1]));
        }
        return object.toString();
    }
}
