package dev.quaestor.retention;

import dev.quaestor.evidence.VerifierKey;
import dev.quaestor.evidence.check.TrustedKeys;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;

/**
 * The key a run checks its archives with ({@code --trust}), checked before the run does anything: the file must hold
 * keys, and one of them must be a key this database's logs were signed with ({@code audit_key}); otherwise no archive
 * of it could verify, and the run would export a month only to fail.
 */
final class LogKeyCheck {

    private LogKeyCheck() {
    }

    /** What is wrong with the key file {@code trust} for this database, or null if it holds one of its logs' keys. */
    static String problem(Connection c, Path trust) throws SQLException {
        TrustedKeys trusted;
        try {
            var lines = new ArrayList<String>();
            for (String line : Files.readAllLines(trust, StandardCharsets.UTF_8)) {
                if (!line.isBlank() && !line.strip().startsWith("#")) {
                    lines.add(line.strip());
                }
            }
            if (lines.isEmpty()) {
                return "--trust " + trust + ": the file holds no key";
            }
            trusted = TrustedKeys.parse(lines);
        } catch (IOException e) {
            return "--trust " + trust + " cannot be read: " + e.getMessage();
        } catch (IllegalArgumentException e) {
            return "--trust " + trust + ": " + e.getMessage();
        }
        var theirs = new ArrayList<String>();
        try (ResultSet rs = c.createStatement().executeQuery("SELECT vkey, public_key FROM audit_key ORDER BY created_at")) {
            while (rs.next()) {
                String vkey = rs.getString(1);
                if (vkey != null) {
                    theirs.add(vkey);
                    if (trusted.trusts(VerifierKey.parse(vkey))) {
                        return null;
                    }
                }
                byte[] encoded = Base64.getDecoder().decode(rs.getString(2));
                if (encoded.length >= 32 && trusted.trustsRaw(Arrays.copyOfRange(encoded, encoded.length - 32, encoded.length))) {
                    return null;
                }
            }
        }
        return "--trust " + trust + ": no key in it is a key this database's logs are signed with"
                + (theirs.isEmpty() ? " (it has none yet)" : " (" + String.join(", ", theirs) + ")");
    }
}
