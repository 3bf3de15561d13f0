package dev.quaestor.audit;

import dev.quaestor.evidence.Anchor;
import dev.quaestor.evidence.CanonicalRecord;
import dev.quaestor.evidence.ExportSink;
import dev.quaestor.evidence.v1.V1Checkpoint;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;

/**
 * Reads the audit tables in the export's order (docs/audit-format.md, section 6: keys, checkpoints,
 * archive markers, nodes, then each log's records by seq) into an {@link ExportSink}. The export file
 * and the online check are both this, with a different sink, so what is checked online is exactly
 * what an outsider would check offline. A checkpoint's note carries its time-stamp's line once its anchor is
 * stored (docs/audit-format.md, section 3.1). Records stream from a database cursor.
 */
final class StoredLog {

    private static final int FETCH = 1000;

    /** Joins a checkpoint row {@code k} to its anchor, if stored; {@link #ANCHOR} is then the note line's field. */
    static final String ANCHORED = "LEFT JOIN audit_anchor a ON a.chain_id = k.chain_id AND a.seq = k.seq";
    static final String ANCHOR = "a.signature";

    private StoredLog() {
    }

    /** A checkpoint's note as served: with its time-stamp's line if it has an anchor ({@code field} not null). */
    static String anchored(String note, String field) {
        return field == null ? note : Anchor.attach(note, field);
    }

    /** Everything, or the records whose time falls in [from, to) with every key, checkpoint, marker and node. */
    static void replay(Connection c, Instant from, Instant to, ExportSink sink) throws SQLException {
        c.setAutoCommit(false); // PostgreSQL streams with a cursor only inside a transaction
        long row = 0;
        try (PreparedStatement ps = c.prepareStatement("SELECT key_id, public_key, vkey FROM audit_key ORDER BY key_id");
                ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
                row++;
                if (rs.getString(3) != null) {
                    sink.key(rs.getString(3), row);
                } else {
                    sink.keyV1(rs.getString(1), rs.getString(2), row);
                }
            }
        }
        try (PreparedStatement ps = c.prepareStatement("SELECT k.chain_id, k.seq, k.head_hash, k.signed_at, k.key_id, k.signature, "
                + "k.note, " + ANCHOR + " FROM audit_checkpoint k " + ANCHORED + " ORDER BY k.chain_id, k.seq");
                ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
                row++;
                if (rs.getString(7) != null) {
                    sink.checkpoint(rs.getString(1), rs.getLong(2), anchored(rs.getString(7), rs.getString(8)), row);
                } else {
                    sink.checkpointV1(new V1Checkpoint(rs.getString(1), rs.getLong(2), rs.getString(3), rs.getString(4),
                            rs.getString(5), rs.getString(6)), row);
                }
            }
        }
        try (PreparedStatement ps = c.prepareStatement("SELECT chain_id, seq, entry_hash FROM audit_archive ORDER BY chain_id, seq");
                ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
                sink.archive(rs.getString(1), rs.getLong(2), rs.getString(3), ++row);
            }
        }
        try (PreparedStatement ps = c.prepareStatement("SELECT chain_id, level, idx, hash FROM audit_tree_node ORDER BY chain_id, level, idx")) {
            ps.setFetchSize(FETCH);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    sink.node(rs.getString(1), rs.getInt(2), rs.getLong(3), rs.getString(4), ++row);
                }
            }
        }
        var where = new StringBuilder(" WHERE chain_id IS NOT NULL");
        if (from != null) {
            where.append(" AND event_time >= ?");
        }
        if (to != null) {
            where.append(" AND event_time < ?");
        }
        try (PreparedStatement ps = c.prepareStatement("SELECT " + AuditRecords.COLUMN_LIST + " FROM audit_entry" + where
                + " ORDER BY chain_id, seq")) {
            ps.setFetchSize(FETCH);
            int p = 1;
            if (from != null) {
                ps.setObject(p++, OffsetDateTime.ofInstant(from, ZoneOffset.UTC));
            }
            if (to != null) {
                ps.setObject(p, OffsetDateTime.ofInstant(to, ZoneOffset.UTC));
            }
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    var fields = AuditRecords.fromRow(rs, 1);
                    String hash = fields.remove("hash");
                    sink.record(CanonicalRecord.of(fields), hash, ++row);
                }
            }
        }
        c.commit();
    }
}
