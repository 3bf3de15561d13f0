package dev.quaestor.audit.write;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;

/** Names a log's signing key in {@code audit_key}, for people reading the database; nothing trusts it for being there. */
final class KeyRegistration {

    private KeyRegistration() {
    }

    /** Adds the key's row unless one with its key id is there already. */
    static void register(Connection c, SigningKey key) throws SQLException {
        String id = key.verifierKey().keyIdHex();
        try (PreparedStatement ps = c.prepareStatement("SELECT 1 FROM audit_key WHERE key_id = ?")) {
            ps.setString(1, id);
            try (ResultSet rs = ps.executeQuery()) {
                if (rs.next()) {
                    return;
                }
            }
        }
        try (PreparedStatement ps = c.prepareStatement(
                "INSERT INTO audit_key (key_id, algorithm, public_key, created_at, vkey) VALUES (?, 'Ed25519', ?, ?, ?)")) {
            ps.setString(1, id);
            ps.setString(2, key.publicKeyBase64());
            ps.setObject(3, OffsetDateTime.now(ZoneOffset.UTC));
            ps.setString(4, key.verifierKey().toString());
            ps.executeUpdate();
        }
    }
}
