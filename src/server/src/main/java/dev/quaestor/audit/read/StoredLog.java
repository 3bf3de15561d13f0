package dev.quaestor.audit.read;

import dev.quaestor.audit.record.AuditRecords;
import dev.quaestor.audit.record.RecordText;

import dev.quaestor.evidence.Anchor;
import dev.quaestor.evidence.RecordField;
import dev.quaestor.evidence.ExportSink;
import dev.quaestor.evidence.v1.V1Checkpoint;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import javax.sql.DataSource;

/**
 * Reads the audit tables in the export's order (docs/audit-format.md, section 6: keys, checkpoints,
 * archive markers, nodes, then each log's records by seq) into an {@link ExportSink}. The export file
 * and the online check are both this, with a different sink, so what is checked online is exactly
 * what an outsider would check offline. A checkpoint's note carries its time-stamp's line once its anchor is
 * stored (docs/audit-format.md, section 3.1).
 *
 * <p>A replay is fixed when it starts ({@link Bounds}: each log's last record and last checkpoint then) and reads
 * in pages of {@value #PAGE} rows by (log, seq), taking a connection for each page and giving it back before the
 * sink sees the page's rows. A slow reader of an export therefore holds no connection, and the export holds each
 * log exactly up to where it stood at the start, whatever is written meanwhile.
 */
final class StoredLog {

    static final int PAGE = 1000;

    /** Joins a checkpoint row {@code k} to its anchor, if stored; {@link #ANCHOR} is then the note line's field. */
    static final String ANCHORED = "LEFT JOIN audit_anchor a ON a.chain_id = k.chain_id AND a.seq = k.seq";
    static final String ANCHOR = "a.signature";

    /** Where each log ended when a replay started: its last record's seq (0: none) and last checkpoint's size. */
    record Bounds(Map<String, long[]> logs) {

        long lastRecord(String log) {
            long[] b = logs.get(log);
            return b == null ? 0 : b[0];
        }

        long lastCheckpoint(String log) {
            long[] b = logs.get(log);
            return b == null ? 0 : b[1];
        }

        /** The leaves a stored node may cover and still belong to the replay. */
        long leaves(String log) {
            return Math.max(lastRecord(log), lastCheckpoint(log));
        }
    }

    @FunctionalInterface
    interface Row<T> {
        T read(ResultSet rs) throws SQLException;
    }

    private StoredLog() {
    }

    /** A checkpoint's note as served: with its time-stamp's line if it has an anchor ({@code field} not null). */
    static String anchored(String note, String field) {
        return field == null ? note : Anchor.attach(note, field);
    }

    /** Each log's last record and last checkpoint, now. */
    static Bounds bounds(DataSource ds) throws SQLException {
        var logs = new TreeMap<String, long[]>();
        try (Connection c = ds.getConnection()) {
            try (PreparedStatement ps = c.prepareStatement("SELECT chain_id, MAX(seq) FROM audit_checkpoint GROUP BY chain_id");
                    ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    logs.computeIfAbsent(rs.getString(1), k -> new long[2])[1] = rs.getLong(2);
                }
            }
            // The logs that have records, one index probe per log (a loose scan), then each one's last seq.
            var withRecords = new ArrayList<String>();
            try (PreparedStatement ps = c.prepareStatement("SELECT MIN(chain_id) FROM audit_entry WHERE chain_id > ?")) {
                String after = "";
                while (true) {
                    ps.setString(1, after);
                    try (ResultSet rs = ps.executeQuery()) {
                        if (!rs.next() || rs.getString(1) == null) {
                            break;
                        }
                        after = rs.getString(1);
                        withRecords.add(after);
                    }
                }
            }
            try (PreparedStatement ps = c.prepareStatement("SELECT MAX(seq) FROM audit_entry WHERE chain_id = ?")) {
                for (String log : withRecords) {
                    ps.setString(1, log);
                    try (ResultSet rs = ps.executeQuery()) {
                        rs.next();
                        logs.computeIfAbsent(log, k -> new long[2])[0] = rs.getLong(1);
                    }
                }
            }
        }
        return new Bounds(logs);
    }

    /**
     * Everything as it stood at {@code bounds}, or the records whose time falls in [from, to) with every key,
     * checkpoint, marker and node.
     */
    static void replay(DataSource ds, Bounds bounds, Instant from, Instant to, ExportSink sink) throws SQLException {
        long[] row = {0};
        for (String[] k : page(ds, "SELECT key_id, public_key, vkey FROM audit_key ORDER BY key_id", List.of(),
                rs -> new String[] {rs.getString(1), rs.getString(2), rs.getString(3)})) {
            row[0]++;
            if (k[2] != null) {
                sink.key(k[2], row[0]);
            } else {
                sink.keyV1(k[0], k[1], row[0]);
            }
        }
        for (String log : bounds.logs().keySet()) {
            long limit = bounds.lastCheckpoint(log);
            long after = -1;
            while (after < limit) {
                var page = page(ds, "SELECT k.chain_id, k.seq, k.head_hash, k.signed_at, k.key_id, k.signature, k.note, " + ANCHOR
                        + " FROM audit_checkpoint k " + ANCHORED + " WHERE k.chain_id = ? AND k.seq > ? AND k.seq <= ? ORDER BY k.seq"
                        + " LIMIT " + PAGE, List.of(log, after, limit), rs -> new Object[] {rs.getLong(2), new V1Checkpoint(rs.getString(1),
                                rs.getLong(2), rs.getString(3), rs.getString(4), rs.getString(5), rs.getString(6)), rs.getString(7),
                                rs.getString(8)});
                for (Object[] k : page) {
                    row[0]++;
                    if (k[2] != null) {
                        sink.checkpoint(log, (Long) k[0], anchored((String) k[2], (String) k[3]), row[0]);
                    } else {
                        sink.checkpointV1((V1Checkpoint) k[1], row[0]);
                    }
                }
                if (page.size() < PAGE) {
                    break;
                }
                after = (Long) page.get(page.size() - 1)[0];
            }
        }
        for (Object[] a : page(ds, "SELECT chain_id, seq, entry_hash FROM audit_archive ORDER BY chain_id, seq", List.of(),
                rs -> new Object[] {rs.getString(1), rs.getLong(2), rs.getString(3)})) {
            sink.archive((String) a[0], (Long) a[1], (String) a[2], ++row[0]);
        }
        for (String log : bounds.logs().keySet()) {
            nodes(ds, log, bounds.leaves(log), sink, row);
        }
        for (String log : bounds.logs().keySet()) {
            records(ds, log, bounds.lastRecord(log), from, to, (record, line) -> sink.record(record.canonical(), record.hash(), line),
                    row);
        }
    }

    /** A log's stored nodes by level and index, but those over leaves past {@code leaves}. */
    private static void nodes(DataSource ds, String log, long leaves, ExportSink sink, long[] row) throws SQLException {
        int level = -1;
        long idx = -1;
        while (true) {
            var page = page(ds, "SELECT level, idx, hash FROM audit_tree_node WHERE chain_id = ? AND (level > ? OR (level = ? AND idx > ?))"
                    + " ORDER BY level, idx LIMIT " + PAGE, List.of(log, level, level, idx),
                    rs -> new Object[] {rs.getInt(1), rs.getLong(2), rs.getString(3)});
            for (Object[] n : page) {
                int l = (Integer) n[0];
                long i = (Long) n[1];
                // (i + 1) * 2^l <= leaves, without overflow: the node covers only leaves the replay holds.
                if (l < 63 && i + 1 <= (leaves >> l)) {
                    sink.node(log, l, i, (String) n[2], ++row[0]);
                }
            }
            if (page.size() < PAGE) {
                return;
            }
            Object[] last = page.get(page.size() - 1);
            level = (Integer) last[0];
            idx = (Long) last[1];
        }
    }

    /** What a replay's records are given to, each as stored, with its line in the replay. */
    @FunctionalInterface
    interface Records {
        void record(RecordText record, long line);
    }

    /** The records alone of a replay ({@link #replay}), in its order: each log's by seq, those in [from, to) if given. */
    static void records(DataSource ds, Bounds bounds, Instant from, Instant to, Records each) throws SQLException {
        long[] row = {0};
        for (String log : bounds.logs().keySet()) {
            records(ds, log, bounds.lastRecord(log), from, to, each, row);
        }
    }

    /** A log's records up to {@code last}, by seq, those in [from, to) if given. */
    private static void records(DataSource ds, String log, long last, Instant from, Instant to, Records each, long[] row)
            throws SQLException {
        var where = new StringBuilder(" WHERE chain_id = ? AND seq > ? AND seq <= ?");
        if (from != null) {
            where.append(" AND event_time >= ?");
        }
        if (to != null) {
            where.append(" AND event_time < ?");
        }
        String sql = "SELECT " + AuditRecords.COLUMN_LIST + " FROM audit_entry" + where + " ORDER BY seq LIMIT " + PAGE;
        long after = 0;
        while (after < last) {
            var args = new ArrayList<Object>(List.of(log, after, last));
            if (from != null) {
                args.add(OffsetDateTime.ofInstant(from, ZoneOffset.UTC));
            }
            if (to != null) {
                args.add(OffsetDateTime.ofInstant(to, ZoneOffset.UTC));
            }
            var page = page(ds, sql, args, rs -> RecordText.read(rs, 1));
            for (RecordText record : page) {
                each.record(record, ++row[0]);
            }
            if (page.size() < PAGE) {
                return;
            }
            after = Long.parseLong(page.get(page.size() - 1).value(RecordField.SEQ));
        }
    }

    /** One page: a connection taken, the rows read, the connection given back, then the rows returned. */
    static <T> List<T> page(DataSource ds, String sql, List<Object> args, Row<T> read) throws SQLException {
        try (Connection c = ds.getConnection(); PreparedStatement ps = c.prepareStatement(sql)) {
            for (int i = 0; i < args.size(); i++) {
                ps.setObject(i + 1, args.get(i));
            }
            var out = new ArrayList<T>();
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.add(read.read(rs));
                }
            }
            return out;
        }
    }
}
