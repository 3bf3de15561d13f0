package dev.quaestor.audit.read;

import dev.quaestor.evidence.check.Report;
import java.util.regex.Pattern;

/**
 * The online check's report in the database's terms. The verifier reads an export line by line and says where a
 * thing is by its line ("record 37 of log a (line 412)", "the checkpoint on line 3"); the online check reads the
 * tables, where those lines are only its own count of the rows it read and point at nothing anyone can open. Each
 * such mention is left out: the words already name the record by its seq, the checkpoint by its size and the stored
 * node by its records. A key the database names but the check does not trust is named as the database's, not the
 * export's.
 */
final class OnlineWords {

    /** " (line 12)", " (lines 3 and 4)": after a record, checkpoint or node that the words name already. */
    private static final Pattern IN_BRACKETS = Pattern.compile(" \\(lines? [0-9,]+(?: and [0-9,]+)?\\)");
    /** ", line 12" inside brackets that say more: "(found at record 50, line 412)". */
    private static final Pattern AFTER_COMMA = Pattern.compile(", line [0-9,]+(?=[,)])");
    /** " on line 12": "the checkpoint on line 3 (log a, 50 records)", "the stored node on line 7 of log a". */
    private static final Pattern ON_LINE = Pattern.compile(" on line [0-9,]+");
    /** "line 2: the export names the key …": a row of the database's keys. */
    private static final Pattern KEY_LINE = Pattern.compile("^line [0-9,]+: the export names");

    private OnlineWords() {
    }

    /** The report with its problems' and warnings' words for the database; kinds, places and evidence unchanged. */
    static Report of(Report report) {
        return new Report(report.logs(), report.problems().stream().map(p -> p.saying(words(p.message()))).toList(),
                report.warnings().stream().map(OnlineWords::words).toList());
    }

    static String words(String offline) {
        String s = KEY_LINE.matcher(offline).replaceFirst("the database (audit_key) names");
        s = IN_BRACKETS.matcher(s).replaceAll("");
        s = AFTER_COMMA.matcher(s).replaceAll("");
        return ON_LINE.matcher(s).replaceAll("");
    }
}
