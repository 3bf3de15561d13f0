package dev.quaestor.retention;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.YearMonth;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.StringJoiner;

/**
 * One run of the retention job, as the database owner. First every refusal, before anything is written: not the owner,
 * an age below one month (the current month is never archived) or below the retention lock, an archive directory it
 * cannot write to ({@link ArchiveDirectory}), a key that is not one of the database's logs' keys ({@link LogKeyCheck}), a month whose archive file
 * already exists, a month whose last record has no signed checkpoint. Then, oldest month first, for each month past the
 * age: the records legal holds cover are kept with their proofs ({@link HeldCopy}); the month is exported and checked
 * offline ({@link MonthExport}); it is archived in the database ({@link PartitionDrop}); and only then does the archive
 * file take its name, beside its SHA-256. The run is written to {@code retention_run} (what it archived, what it kept
 * for which hold, or why it refused or stopped), which the server puts on the audit log.
 */
final class RetentionRun {

    static final int DONE = 0;
    static final int FAILED = 1;
    static final int REFUSED = 2;
    static final int DEFERRED = 3;

    private final Connection c;
    private final RetentionOptions o;
    private final PrintStream log;
    private final Instant started = Instant.now();
    private final StringJoiner summary = new StringJoiner("; ");
    /** A month dropped whose summary is not written yet: what the run's record says of it if the run stops now. */
    private String dropping;

    RetentionRun(Connection c, RetentionOptions o, PrintStream log) {
        this.c = c;
        this.o = o;
        this.log = log;
    }

    int run() throws SQLException, IOException, InterruptedException {
        if (!RetentionLock.isOwner(c)) {
            log.println("refused: this role cannot archive; run the retention job as the database owner, never the application");
            return REFUSED;
        }
        long runId = nextRunId();
        int locked = RetentionLock.minimumAge(c);
        summary.add("age " + o.ageMonths() + " month(s)" + (locked > 0 ? " (locked at " + locked + ")" : ""));
        if (o.ageMonths() < 1) {
            return refuse(runId, "an age of at least 1 month is needed: the current month is never archived");
        }
        if (o.ageMonths() < locked) {
            return refuse(runId, "the retention lock keeps " + locked + " month(s) online: the age may be raised, never lowered");
        }
        String out = ArchiveDirectory.problem(o.out());
        if (out != null) {
            return refuse(runId, out);
        }
        String key = LogKeyCheck.problem(c, o.trust());
        if (key != null) {
            return refuse(runId, key);
        }
        YearMonth current = YearMonth.now(ZoneOffset.UTC);
        List<ArchiveMonth> months = due(current.minusMonths(o.ageMonths()));
        if (months.isEmpty()) {
            summary.add("nothing older than " + current.minusMonths(o.ageMonths()) + " to archive");
            return finish(runId, "nothing", DONE);
        }
        Files.createDirectories(o.out());
        for (ArchiveMonth m : months) {
            if (!m.month().isBefore(current)) {
                return refuse(runId, m.month() + " is the current month or later, and is never archived");
            }
            Path file = o.out().resolve(m.fileName());
            if (Files.exists(file)) {
                return refuse(runId, m.month() + " was already archived: " + file + " exists (check it, and move it away only"
                        + " if the month was not dropped)");
            }
            var unsigned = HeldCopy.unsigned(c, HeldCopy.monthEnds(c, m));
            if (!unsigned.isEmpty()) {
                return refuse(runId, m.month() + " does not end at a signed checkpoint (log " + String.join(", log ", unsigned)
                        + "); archive it once its writer has signed one");
            }
        }
        try {
            for (ArchiveMonth m : months) {
                int exit = archive(m, runId);
                if (exit != DONE) {
                    return finish(runId, exit == DEFERRED ? "deferred" : "failed", exit);
                }
            }
        } catch (SQLException | IOException | InterruptedException | RuntimeException e) {
            stopped(runId, e);
            throw e;
        }
        return finish(runId, "archived", DONE);
    }

    /**
     * A run that stopped on {@code e} after it may have changed something (a month dropped, records kept) is on record
     * as failed, with what it did by then, so that no drop goes unrecorded; a record that cannot be written does not
     * hide {@code e}.
     */
    private void stopped(long runId, Exception e) {
        if (dropping != null) {
            summary.add(dropping);
        }
        summary.add("stopped: " + e.getClass().getSimpleName() + ": " + e.getMessage());
        try {
            if (!c.getAutoCommit()) {
                c.rollback();
                c.setAutoCommit(true);
            }
            finish(runId, "failed", FAILED);
        } catch (SQLException unrecorded) {
            e.addSuppressed(unrecorded);
        }
    }

    /** Archives one month; DONE, FAILED (the archive did not verify) or DEFERRED (the detach never got its locks). */
    private int archive(ArchiveMonth m, long runId) throws SQLException, IOException, InterruptedException {
        if (HeldCopy.empty(c, m)) {
            // A partition opened ahead that never received a record: nothing to keep, export or verify.
            var dropped = PartitionDrop.drop(c, m, 0, o, log);
            if (dropped == null || !dropped.done()) {
                summary.add(m.month() + ": held by long reads for " + o.retryFor().toSeconds() + " s; the next run drops it");
                return DEFERRED;
            }
            summary.add("dropped " + m.month() + ": it held no record");
            log.println("  dropped " + m.month() + ": it held no record");
            return DONE;
        }
        var ends = HeldCopy.monthEnds(c, m);
        var kept = HeldCopy.copy(c, m, ends, runId);
        for (var k : kept) {
            log.println("  " + m.month() + ": kept " + k.records() + " record(s) for hold " + k.holdId() + " of case " + k.caseId()
                    + " (" + k.covers() + ")");
        }
        Path partial = o.out().resolve(m.fileName() + ".partial");
        long records = MonthExport.write(c, m, partial);
        var verdict = MonthExport.verify(partial, o);
        log.print(verdict.report());
        if (!verdict.verified()) {
            Files.deleteIfExists(partial);
            summary.add(m.month() + ": the archive did not verify offline, nothing was dropped: "
                    + verdict.report().strip().lines().reduce((a, b) -> b).orElse(""));
            return FAILED;
        }
        var dropped = PartitionDrop.drop(c, m, records, o, log);
        if (dropped != null && !dropped.done()) {
            Files.deleteIfExists(partial);
            String why = m.month() + ": " + dropped.notKept() + " record(s) that a hold put during the run covers were not kept yet,"
                    + " so the month was not dropped; the next run keeps them and archives it";
            summary.add(why);
            log.println("  " + why);
            return DEFERRED;
        }
        if (dropped == null) {
            Files.deleteIfExists(partial);
            summary.add(m.month() + ": held records kept, but audit_entry stayed held by long reads for " + o.retryFor().toSeconds()
                    + " s, so the month was not dropped; the next run archives it");
            return DEFERRED;
        }
        dropping = "dropped " + m.month() + " (" + records + " record(s)) from the database after its archive verified offline,"
                + " but the run stopped before its archive file and its SHA-256 were both written (look for " + m.fileName()
                + " and " + m.fileName() + ".partial in " + o.out() + ")";
        Path file = o.out().resolve(m.fileName());
        Files.move(partial, file, StandardCopyOption.ATOMIC_MOVE);
        String sha = sha256(file);
        Files.writeString(o.out().resolve(m.fileName() + ".sha256"), sha + "  " + m.fileName() + "\n");
        var logs = new StringJoiner(", ");
        dropped.markers().forEach(k -> logs.add(k.log() + " up to seq " + k.seq()));
        var part = new StringBuilder("archived " + m.month() + ": " + records + " record(s) (" + logs + ") to " + m.fileName()
                + " sha256 " + sha + ", verified offline");
        if (kept.isEmpty()) {
            part.append(", no record under a hold");
        }
        for (var k : kept) {
            part.append(", kept ").append(k.records()).append(" record(s) for hold ").append(k.holdId()).append(" of case ")
                    .append(k.caseId()).append(" (").append(k.covers()).append(") with proofs to the month's last checkpoint");
        }
        if (dropped.lockTimeouts() > 0) {
            part.append(", the detach gave way to long reads ").append(dropped.lockTimeouts()).append(" time(s)");
        }
        dropping = null;
        summary.add(part.toString());
        log.println("  " + part);
        return DONE;
    }

    /** The months whose partitions lie wholly before {@code before}, oldest first, at most {@code maxMonths}. */
    private List<ArchiveMonth> due(YearMonth before) throws SQLException {
        var out = new ArrayList<ArchiveMonth>();
        try (PreparedStatement ps = c.prepareStatement("SELECT p::text FROM quaestor_audit_archivable(?) p ORDER BY 1")) {
            ps.setObject(1, OffsetDateTime.of(before.atDay(1).atStartOfDay(), ZoneOffset.UTC));
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next() && out.size() < o.maxMonths()) {
                    String name = rs.getString(1).replace("\"", "");
                    String ym = name.substring(name.length() - 7).replace('_', '-');
                    out.add(new ArchiveMonth(YearMonth.parse(ym), name));
                }
            }
        }
        return out;
    }

    private int refuse(long runId, String why) throws SQLException {
        summary.add("refused: " + why);
        log.println("refused: " + why + " (nothing was written)");
        return finish(runId, "refused", REFUSED);
    }

    private int finish(long runId, String outcome, int exit) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("INSERT INTO retention_run (id, started_at, finished_at, age_months, outcome,"
                + " summary, run_by) VALUES (?, ?, ?, ?, ?, ?, current_user)")) {
            ps.setLong(1, runId);
            ps.setObject(2, OffsetDateTime.ofInstant(started, ZoneOffset.UTC));
            ps.setObject(3, OffsetDateTime.now(ZoneOffset.UTC));
            ps.setInt(4, o.ageMonths());
            ps.setString(5, outcome);
            ps.setString(6, summary.toString());
            ps.executeUpdate();
        }
        log.println("run " + runId + " " + outcome + ": " + summary);
        return exit;
    }

    private long nextRunId() throws SQLException {
        try (ResultSet rs = c.createStatement().executeQuery("SELECT nextval(pg_get_serial_sequence('retention_run', 'id'))")) {
            rs.next();
            return rs.getLong(1);
        }
    }

    private static String sha256(Path file) throws IOException {
        try {
            var md = MessageDigest.getInstance("SHA-256");
            try (var in = Files.newInputStream(file)) {
                byte[] buf = new byte[1 << 16];
                for (int n; (n = in.read(buf)) > 0; ) {
                    md.update(buf, 0, n);
                }
            }
            return HexFormat.of().formatHex(md.digest());
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
