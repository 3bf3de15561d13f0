package dev.quaestor.audit.write;

import dev.quaestor.audit.record.AuditRecords;
import dev.quaestor.audit.record.RecordText;

import dev.quaestor.evidence.Checkpoint;
import dev.quaestor.evidence.Frontier;
import dev.quaestor.evidence.Hex;
import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import org.postgresql.PGConnection;

/**
 * One group commit: records placed in the log (seq, leaf hash), the tree nodes they complete, and the
 * checkpoints that fall in or after them, stored all or nothing.
 *
 * <p>On PostgreSQL the whole batch is <b>one statement in autocommit mode</b>: every insert unnests
 * column arrays, so a batch of any size costs one network round trip, and its commit (the WAL flush)
 * happens inside it. At moderate load, where batches are small, round trips and the thread wake-ups
 * around them would otherwise be most of an audited read's cost. Elsewhere (H2) it is JDBC batches
 * in a transaction.
 *
 * <p>Either way the batch also moves the log's head ({@link HeadRow}) from the size its writer read to its own, and is
 * stored only if the head was still there: a batch placed after a head another writer has moved since is refused
 * ({@link HeadRow.Moved}), with nothing stored.
 */
final class SealedBatch {

    record Row(RecordText text, String leafHash) {
    }

    record Node(int level, long index, String hash) {
    }

    final List<Row> rows;
    final List<Node> nodes = new ArrayList<>();
    final List<Checkpoint> checkpoints = new ArrayList<>(1);
    /** The tree and the last record's time once this batch is stored. */
    Frontier sealedTree;
    java.time.Instant sealedTime;
    private final String log;
    /** The log's size the batch was placed after: where the head must still be for it to be stored. */
    private final long from;
    /** Whether the store went to PostgreSQL, and the server process that ran it (0 if not known). */
    private boolean onPostgres;
    private int backend;

    SealedBatch(String log, long from, int size) {
        this.log = log;
        this.from = from;
        this.rows = new ArrayList<>(size);
    }

    boolean isEmpty() {
        return rows.isEmpty() && checkpoints.isEmpty();
    }

    private static final String NODE_COLUMNS = "chain_id, level, idx, hash";
    private static final String CHECKPOINT_COLUMNS = "chain_id, seq, head_hash, signed_at, key_id, signature, note";

    /**
     * The head's move and all three inserts in one statement: data-modifying CTEs run exactly once, in one transaction.
     * Each insert reads its rows joined with the head's move, so if the head did not move (no row returned) nothing is
     * inserted; the statement's result says whether it moved.
     */
    static final String POSTGRES_INSERT;

    static {
        var unnest = new StringBuilder();
        for (AuditRecords.Column column : AuditRecords.COLUMNS) {
            unnest.append(unnest.isEmpty() ? "" : ", ").append("?::text[]::").append(column.sqlType()).append("[]");
        }
        POSTGRES_INSERT = "WITH " + HeadRow.POSTGRES_MOVE + ", entries AS (INSERT INTO audit_entry (" + AuditRecords.COLUMN_LIST
                + ") SELECT u.* FROM head, unnest(" + unnest + ") u), nodes AS (INSERT INTO audit_tree_node (" + NODE_COLUMNS
                + ") SELECT u.* FROM head, unnest(?::text[], ?::text[]::smallint[], ?::text[]::bigint[], ?::text[]) u),"
                + " checkpoints AS (INSERT INTO audit_checkpoint (" + CHECKPOINT_COLUMNS
                + ") SELECT u.* FROM head, unnest(?::text[], ?::text[]::bigint[], ?::text[], ?::text[], ?::text[], ?::text[],"
                + " ?::text[]) u) SELECT EXISTS (SELECT 1 FROM head)";
    }

    /**
     * Stores the batch as one statement on an autocommit connection; on return it is durable. Throws
     * {@link HeadRow.Moved} if another writer moved the log's head: then nothing was stored.
     */
    void storeInPostgres(Connection c) throws SQLException {
        onPostgres = true;
        backend = c.unwrap(PGConnection.class).getBackendPID(); // known since the connection opened: no round trip
        try (PreparedStatement ps = c.prepareStatement(POSTGRES_INSERT)) {
            int p = HeadRow.bind(ps, 1, log, from, sealedTree.size());
            for (int column = 0; column < AuditRecords.COLUMNS.size(); column++) {
                var values = new String[rows.size()]; // not reused: the driver may encode it only when sending
                boolean hash = column == AuditRecords.HASH;
                for (int i = 0; i < values.length; i++) {
                    Row r = rows.get(i);
                    values[i] = hash ? r.leafHash() : r.text().column(column);
                }
                ps.setArray(p++, text(c, values));
            }
            String[][] n = new String[4][nodes.size()];
            for (int i = 0; i < nodes.size(); i++) {
                Node node = nodes.get(i);
                n[0][i] = log;
                n[1][i] = Integer.toString(node.level());
                n[2][i] = Long.toString(node.index());
                n[3][i] = node.hash();
            }
            for (String[] values : n) {
                ps.setArray(p++, text(c, values));
            }
            String[][] k = new String[7][checkpoints.size()];
            for (int i = 0; i < checkpoints.size(); i++) {
                String[] row = checkpointRow(checkpoints.get(i));
                for (int j = 0; j < row.length; j++) {
                    k[j][i] = row[j];
                }
            }
            for (String[] values : k) {
                ps.setArray(p++, text(c, values));
            }
            ps.execute();
            try (var rs = ps.getResultSet()) {
                if (!rs.next() || !rs.getBoolean(1)) {
                    throw HeadRow.refused(log, from, sealedTree.size());
                }
            }
        }
    }

    /** Stores the batch in a transaction of its own (any JDBC database). */
    void storeInTransaction(Connection c) throws SQLException {
        c.setAutoCommit(false);
        try {
            HeadRow.move(c, log, from, sealedTree.size()); // first: its row lock orders two writers' batches
            if (!rows.isEmpty()) {
                try (PreparedStatement ps = c.prepareStatement(AuditRecords.INSERT)) {
                    for (Row r : rows) {
                        AuditRecords.bind(ps, r.text(), r.leafHash());
                        ps.addBatch();
                    }
                    ps.executeBatch();
                }
            }
            if (!nodes.isEmpty()) {
                try (PreparedStatement ps = c.prepareStatement("INSERT INTO audit_tree_node (" + NODE_COLUMNS + ") VALUES (?,?,?,?)")) {
                    for (Node node : nodes) {
                        ps.setString(1, log);
                        ps.setInt(2, node.level());
                        ps.setLong(3, node.index());
                        ps.setString(4, node.hash());
                        ps.addBatch();
                    }
                    ps.executeBatch();
                }
            }
            for (Checkpoint k : checkpoints) {
                try (PreparedStatement ps = c.prepareStatement("INSERT INTO audit_checkpoint (" + CHECKPOINT_COLUMNS
                        + ") VALUES (?,?,?,?,?,?,?)")) {
                    String[] row = checkpointRow(k);
                    ps.setString(1, row[0]);
                    ps.setLong(2, Long.parseLong(row[1]));
                    for (int j = 2; j < row.length; j++) {
                        ps.setString(j + 1, row[j]);
                    }
                    ps.executeUpdate();
                }
            }
            c.commit();
        } catch (SQLException | RuntimeException e) {
            try {
                c.rollback();
            } catch (SQLException ignored) {
                // the connection is broken; the caller re-reads the head from what was committed
            }
            throw e;
        }
    }

    boolean onPostgres() {
        return onPostgres;
    }

    int backend() {
        return backend;
    }

    /**
     * Whether this batch is in the log after all, though storing it failed: its last record is there with its leaf
     * hash. A batch is stored all or nothing, so its last record tells. A batch of checkpoints alone counts as not
     * stored (nothing waits on it but a signature, and the head read again has it if it is).
     */
    boolean storedIn(Connection c) throws SQLException {
        if (rows.isEmpty()) {
            return false;
        }
        try (PreparedStatement ps = c.prepareStatement("SELECT entry_hash FROM audit_entry WHERE chain_id = ? AND seq = ?")) {
            ps.setString(1, log);
            ps.setLong(2, sealedTree.size());
            try (var rs = ps.executeQuery()) {
                return rs.next() && rows.get(rows.size() - 1).leafHash().equals(rs.getString(1));
            }
        }
    }

    /** The checkpoint table's columns: the note is what counts; the rest is for lookups. */
    private String[] checkpointRow(Checkpoint k) {
        String note = k.note();
        String lastLine = note.substring(note.lastIndexOf('\n', note.length() - 2) + 1, note.length() - 1);
        String field = lastLine.substring(lastLine.lastIndexOf(' ') + 1);
        String keyId = String.format("%08x", java.nio.ByteBuffer.wrap(java.util.Base64.getDecoder().decode(field), 0, 4).getInt());
        return new String[] {log, Long.toString(k.size()), Hex.of(k.root()), k.time().toString(), keyId, field, note};
    }

    // The driver quotes and escapes every element (tabs, backslashes, quotes, braces) and sends null as NULL.
    private static Array text(Connection c, String[] values) throws SQLException {
        return c.createArrayOf("text", values);
    }
}
