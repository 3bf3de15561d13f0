package dev.quaestor.audit;

import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * One group commit: records already chained (seq, prev, hash) and the signed checkpoints that fall
 * in or after them, stored all or nothing.
 *
 * <p>On PostgreSQL the whole batch is <b>one statement in autocommit mode</b>: both inserts unnest
 * column arrays, so a batch of any size costs one network round trip, and its commit (the WAL
 * flush) happens inside it. COPY inside a transaction took four (BEGIN, COPY, its data, COMMIT), and
 * at moderate load, where batches are small, those round trips and the thread wake-ups around them
 * were most of the audited read's cost. Elsewhere (H2) it is a JDBC batch in a transaction.
 */
final class ChainedBatch {

    record Row(Map<String, String> fields, Instant time, String hash) {
    }

    record Checkpoint(long seq, String headHash, String signedAt, String keyId, String signature) {
    }

    /** Column order of {@link AuditRecords#COLUMNS}, with each column's SQL array type. */
    private static final String[][] COLUMNS = {{"v", "varchar"}, {"chain", "varchar"}, {"seq", "bigint"}, {"prev", "varchar"},
        {"time", "timestamptz"}, {"request", "varchar"}, {"kind", "varchar"}, {"session", "varchar"}, {"subject", "varchar"},
        {"client", "varchar"}, {"tenant", "varchar"}, {"roles", "varchar"}, {"ip", "varchar"}, {"ua", "varchar"},
        {"method", "varchar"}, {"action", "varchar"}, {"uri", "varchar"}, {"decision", "varchar"}, {"rules", "varchar"},
        {"revision", "varchar"}, {"outcome", "varchar"}, {"error", "integer"}, {"bytes", "bigint"}, {"items", "integer"},
        {"sha256", "varchar"}, {"latency_us", "bigint"}, {"detail", "varchar"}, {"hash", "varchar"}};

    private static final String CHECKPOINT_COLUMNS = "chain_id, seq, head_hash, signed_at, key_id, signature";

    /** Both inserts in one statement: data-modifying CTEs run exactly once, in one transaction. */
    static final String POSTGRES_INSERT;

    static {
        var unnest = new StringBuilder();
        for (String[] column : COLUMNS) {
            unnest.append(unnest.isEmpty() ? "" : ", ").append("?::text[]::").append(column[1]).append("[]");
        }
        POSTGRES_INSERT = "WITH entries AS (INSERT INTO audit_entry (" + AuditRecords.COLUMNS + ") SELECT * FROM unnest("
                + unnest + ")), checkpoints AS (INSERT INTO audit_checkpoint (" + CHECKPOINT_COLUMNS
                + ") SELECT * FROM unnest(?::text[], ?::text[]::bigint[], ?::text[], ?::text[], ?::text[], ?::text[])) SELECT 1";
    }

    private static final String CHECKPOINT_INSERT = "INSERT INTO audit_checkpoint (" + CHECKPOINT_COLUMNS
            + ") VALUES (?,?,?,?,?,?)";

    final List<Row> rows;
    final List<Checkpoint> checkpoints = new ArrayList<>(1);
    private final String chain;

    ChainedBatch(String chain, int size) {
        this.chain = chain;
        this.rows = new ArrayList<>(size);
    }

    boolean isEmpty() {
        return rows.isEmpty() && checkpoints.isEmpty();
    }

    /** Stores the batch as one statement on an autocommit connection; on return it is durable. */
    void storeInPostgres(Connection c) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(POSTGRES_INSERT)) {
            int p = 1;
            for (String[] name : COLUMNS) {
                var column = new String[rows.size()]; // not reused: the driver may encode it only when sending
                boolean hash = name[0].equals("hash"); // the one column not in the hashed fields
                for (int i = 0; i < column.length; i++) {
                    Row r = rows.get(i);
                    column[i] = hash ? r.hash() : r.fields().get(name[0]);
                }
                ps.setArray(p++, text(c, column));
            }
            int n = checkpoints.size();
            String[][] cp = new String[6][n];
            for (int i = 0; i < n; i++) {
                Checkpoint k = checkpoints.get(i);
                cp[0][i] = chain;
                cp[1][i] = Long.toString(k.seq());
                cp[2][i] = k.headHash();
                cp[3][i] = k.signedAt();
                cp[4][i] = k.keyId();
                cp[5][i] = k.signature();
            }
            for (String[] values : cp) {
                ps.setArray(p++, text(c, values));
            }
            ps.execute();
        }
    }

    /** Stores the batch in a transaction of its own (any JDBC database). */
    void storeInTransaction(Connection c) throws SQLException {
        c.setAutoCommit(false);
        try {
            if (!rows.isEmpty()) {
                try (PreparedStatement ps = c.prepareStatement(AuditRecords.INSERT)) {
                    for (Row r : rows) {
                        AuditRecords.bind(ps, r.fields(), r.time(), r.hash());
                        ps.addBatch();
                    }
                    ps.executeBatch();
                }
            }
            for (Checkpoint k : checkpoints) {
                try (PreparedStatement ps = c.prepareStatement(CHECKPOINT_INSERT)) {
                    ps.setString(1, chain);
                    ps.setLong(2, k.seq());
                    ps.setString(3, k.headHash());
                    ps.setString(4, k.signedAt());
                    ps.setString(5, k.keyId());
                    ps.setString(6, k.signature());
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

    // The driver quotes and escapes every element (tabs, backslashes, quotes, braces) and sends null as NULL.
    private static Array text(Connection c, String[] values) throws SQLException {
        return c.createArrayOf("text", values);
    }
}
