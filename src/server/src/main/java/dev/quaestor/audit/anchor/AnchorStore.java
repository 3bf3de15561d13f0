package dev.quaestor.audit.anchor;

import dev.quaestor.evidence.Checkpoint;
import dev.quaestor.evidence.SignedNote;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import javax.sql.DataSource;

/** The anchorer's reads and writes: a log's checkpoints after a size, its last anchor, and new anchors. */
final class AnchorStore {

    /** A stored checkpoint: its size, the text it signs (what a token is over), and its time line. */
    record Signed(long size, String text, Instant time) {
    }

    /** How many checkpoints one look reads at most (a backlog is worked through over several). */
    static final int BATCH = 500;

    private final DataSource ds;
    private final String log;

    AnchorStore(DataSource ds, String log) {
        this.ds = ds;
        this.log = log;
    }

    /** The last anchored checkpoint of the log, or null if it has none. */
    Signed lastAnchored() throws SQLException {
        try (Connection c = ds.getConnection(); PreparedStatement ps = c.prepareStatement("SELECT k.seq, k.note FROM audit_anchor a"
                + " JOIN audit_checkpoint k ON k.chain_id = a.chain_id AND k.seq = a.seq WHERE a.chain_id = ? ORDER BY a.seq DESC LIMIT 1")) {
            ps.setString(1, log);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? signed(rs.getLong(1), rs.getString(2)) : null;
            }
        }
    }

    /** The log's checkpoints (format 2) after {@code size}, in order, at most {@link #BATCH}. */
    List<Signed> after(long size) throws SQLException {
        var out = new ArrayList<Signed>();
        try (Connection c = ds.getConnection(); PreparedStatement ps = c.prepareStatement("SELECT seq, note FROM audit_checkpoint"
                + " WHERE chain_id = ? AND seq > ? AND note IS NOT NULL ORDER BY seq LIMIT " + BATCH)) {
            ps.setString(1, log);
            ps.setLong(2, size);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.add(signed(rs.getLong(1), rs.getString(2)));
                }
            }
        }
        return out;
    }

    /** Stores the anchor of the checkpoint at {@code size}: the note line's field, the token's time and its TSA. */
    void store(long size, String field, Instant stampedAt, String tsa) throws SQLException {
        try (Connection c = ds.getConnection(); PreparedStatement ps = c.prepareStatement(
                "INSERT INTO audit_anchor (chain_id, seq, signature, stamped_at, tsa) VALUES (?, ?, ?, ?, ?)")) {
            ps.setString(1, log);
            ps.setLong(2, size);
            ps.setString(3, field);
            ps.setObject(4, OffsetDateTime.ofInstant(stampedAt, ZoneOffset.UTC));
            ps.setString(5, tsa.length() > 1024 ? tsa.substring(0, 1024) : tsa);
            ps.executeUpdate();
        }
    }

    /** A note this server signed and stored: its text and time, read without checking its signature again. */
    private static Signed signed(long size, String note) throws SQLException {
        String text = note.substring(0, note.lastIndexOf("\n\n") + 1);
        try {
            return new Signed(size, text, Checkpoint.parse(text, note).time());
        } catch (SignedNote.Refused e) {
            throw new SQLException("the stored checkpoint of log at " + size + " records is not a checkpoint: " + e.getMessage());
        }
    }
}
