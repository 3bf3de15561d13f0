package dev.quaestor.console;

import dev.quaestor.audit.read.AuditQuery;
import dev.quaestor.audit.read.AuditTally;
import dev.quaestor.audit.record.AuditRow;
import io.quarkus.qute.TemplateData;
import java.time.ZoneId;
import java.util.HashSet;
import java.util.Set;

/**
 * The records a who-read-what question counts that may not be what was written, found as the search and timeline pages
 * find theirs ({@link RecordRow#altered()}, {@link IntegrityNotice#unverified(RecordRow)}): how many were changed after
 * they were written, how many are in a log the last integrity check found broken from before them on, and the groups
 * (subject, folder, URI, day) whose counts include one.
 */
@TemplateData
public final class NotAsWritten {

    private long altered;
    private long unverified;
    private final Set<String> subjects = new HashSet<>();
    private final Set<String> folders = new HashSet<>();
    private final Set<String> uris = new HashSet<>();
    private final Set<String> days = new HashSet<>();

    /** Nothing found: no question was counted. */
    static final NotAsWritten NONE = new NotAsWritten();

    private NotAsWritten() {
    }

    /**
     * The most records one page view checks: a question over a whole large log would otherwise cost a hash of every
     * record it counts on every view, and fail at the query's time limit. Older ones are left to the integrity check.
     */
    static final int CHECKED = 10_000;

    /** Whether the question counts more records than were checked (the newest {@link #checkedAtMost}). */
    private boolean partial;
    private int checkedAtMost = CHECKED;

    /**
     * Checks the newest {@link #CHECKED} records the tallies of {@code q} count, one hash each; days are calendar days in
     * {@code zone}.
     */
    static NotAsWritten of(AuditTally tally, AuditQuery q, ZoneId zone, IntegrityNotice integrity) {
        return of(tally, q, zone, integrity, CHECKED);
    }

    /** As {@link #of(AuditTally, AuditQuery, ZoneId, IntegrityNotice)}, checking the newest {@code checked} at most. */
    static NotAsWritten of(AuditTally tally, AuditQuery q, ZoneId zone, IntegrityNotice integrity, int checked) {
        var found = new NotAsWritten();
        found.checkedAtMost = checked;
        // One more than is checked, to tell whether there were more: that one is read, not judged.
        int[] seen = {0};
        tally.counted(q, checked + 1, row -> {
            if (++seen[0] <= checked) {
                found.check(new RecordRow(row, zone), integrity);
            }
        });
        found.partial = seen[0] > checked;
        return found;
    }

    private void check(RecordRow r, IntegrityNotice integrity) {
        if (r.altered()) {
            altered++;
        } else if (integrity.unverified(r)) {
            unverified++;
        } else {
            return;
        }
        AuditRow row = r.row();
        subjects.add(row.subject());
        folders.add(AuditTally.folder(row.uri()));
        uris.add(row.uri());
        if (row.time() != null) {
            days.add(row.time().atZone(r.zone()).toLocalDate().toString());
        }
    }

    /** How many counted records no longer hash to the hash stored with them: changed after they were written. */
    public long altered() {
        return altered;
    }

    /** How many counted records are in a log the last integrity check found broken, at or after its break. */
    public long unverified() {
        return unverified;
    }

    /** Whether only the newest {@link #checkedAtMost} of the records counted were checked. */
    public boolean partial() {
        return partial;
    }

    /** How many records were checked at most. */
    public int checkedAtMost() {
        return checkedAtMost;
    }

    /** Whether any counted record may not be what was written. */
    public boolean found() {
        return altered + unverified > 0;
    }

    /** Whether the count of {@code subject} (null: none) includes such a record. */
    boolean subject(String subject) {
        return subjects.contains(subject);
    }

    /** Whether the count of the folder {@code folder} includes such a record. */
    boolean folder(String folder) {
        return folders.contains(folder);
    }

    /** Whether the count of {@code uri} includes such a record. */
    boolean uri(String uri) {
        return uris.contains(uri);
    }

    /** Whether the count of {@code day} (as {@code 2026-11-23}) includes such a record. */
    boolean day(String day) {
        return days.contains(day);
    }
}
