package dev.quaestor.retention;

import dev.quaestor.evidence.cli.Main;
import java.io.BufferedWriter;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * A month's archive file: the export of its partition (keys, checkpoints, earlier markers, the tree nodes it needs,
 * its records: {@code quaestor_audit_archive_export}), then checked offline with the standalone verifier, as anyone
 * holding the file and the pinned keys would check it.
 */
final class MonthExport {

    private static final Pattern RECORD = Pattern.compile("^\\{\"type\" ?: ?\"record\"");

    /** The verifier's verdict on a file: its exit code and what it printed. */
    record Verdict(int exit, String report) {

        boolean verified() {
            return exit == 0;
        }
    }

    private MonthExport() {
    }

    /** Writes the month's export to {@code file}; returns how many records it holds. */
    static long write(Connection c, ArchiveMonth m, Path file) throws SQLException, IOException {
        long records = 0;
        boolean auto = c.getAutoCommit();
        c.setAutoCommit(false);
        try (PreparedStatement ps = c.prepareStatement("SELECT * FROM quaestor_audit_archive_export(?)");
                BufferedWriter out = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
            ps.setFetchSize(10_000);
            ps.setObject(1, OffsetDateTime.ofInstant(m.to(), ZoneOffset.UTC));
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    String line = rs.getString(1);
                    if (RECORD.matcher(line).find()) {
                        records++;
                    }
                    out.write(line);
                    out.write('\n');
                }
            }
            c.commit();
        } finally {
            c.setAutoCommit(auto);
        }
        return records;
    }

    /** Checks the file with the standalone verifier, against the pinned key (and TSA root). */
    static Verdict verify(Path file, RetentionOptions o) {
        var args = new ArrayList<>(List.of("verify", file.toString(), "--trust", o.trust().toString()));
        if (o.tsaCa() != null) {
            args.addAll(List.of("--tsa-ca", o.tsaCa().toString()));
        }
        var text = new ByteArrayOutputStream();
        var print = new PrintStream(text, true, StandardCharsets.UTF_8);
        int exit = Main.run(args.toArray(String[]::new), print, print);
        return new Verdict(exit, text.toString(StandardCharsets.UTF_8));
    }
}
