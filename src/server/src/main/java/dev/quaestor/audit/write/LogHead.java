package dev.quaestor.audit.write;

import dev.quaestor.audit.record.AuditEvent;
import dev.quaestor.audit.record.AuditRecords;
import dev.quaestor.audit.record.FieldHasher;
import dev.quaestor.audit.record.RecordText;
import dev.quaestor.audit.record.TreeNodes;

import dev.quaestor.evidence.Checkpoint;
import dev.quaestor.evidence.Frontier;
import dev.quaestor.evidence.Hex;
import dev.quaestor.evidence.RecordFormat;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.YearMonth;
import java.time.ZoneOffset;
import java.util.List;

/**
 * Where a writer's log stands: its tree's right edge, the last record's time and the last signed
 * size. {@link #seal} places a batch after it (seq, leaf hashes, completed nodes, checkpoints due)
 * without moving it; {@link #advance} moves it once the batch is stored, so a batch that fails leaves
 * the head where committed history ends. Appending costs O(log n) hashes per record.
 */
final class LogHead {

    private final String log;
    private final String origin;
    private Frontier tree;
    private Instant lastTime;
    private long signedSize;
    private String signedKeyId;
    private long signedNanos = System.nanoTime();
    /** Right-edge nodes below the stored levels already in the table (level, index packed), so none is stored twice. */
    private final java.util.Set<Long> storedEdge = new java.util.HashSet<>();

    private LogHead(String log, String origin, Frontier tree, Instant lastTime, long signedSize, String signedKeyId) {
        this.log = log;
        this.origin = origin;
        this.tree = tree;
        this.lastTime = lastTime;
        this.signedSize = signedSize;
        this.signedKeyId = signedKeyId;
    }

    /**
     * The head as stored: the last record, the last checkpoint, and the tree's edge from its stored nodes. The log's
     * head row is made to hold at least that size ({@link HeadRow#catchUp}), as the batches placed after it expect.
     */
    static LogHead load(Connection c, String log, String origin) throws SQLException {
        long size = 0;
        Instant last = null;
        try (PreparedStatement ps = c.prepareStatement(
                "SELECT seq, event_time FROM audit_entry WHERE chain_id = ? ORDER BY seq DESC LIMIT 1")) {
            ps.setString(1, log);
            try (ResultSet rs = ps.executeQuery()) {
                if (rs.next()) {
                    size = rs.getLong(1);
                    last = rs.getObject(2, OffsetDateTime.class).toInstant();
                }
            }
        }
        if (size == 0) {
            // Everything this log wrote may have been archived: it continues after the marker.
            try (PreparedStatement ps = c.prepareStatement("SELECT COALESCE(MAX(seq), 0) FROM audit_archive WHERE chain_id = ?")) {
                ps.setString(1, log);
                try (ResultSet rs = ps.executeQuery()) {
                    rs.next();
                    size = rs.getLong(1);
                }
            }
        }
        HeadRow.catchUp(c, log, size);
        long signed = 0;
        String keyId = null;
        try (PreparedStatement ps = c.prepareStatement(
                "SELECT seq, key_id FROM audit_checkpoint WHERE chain_id = ? ORDER BY seq DESC LIMIT 1")) {
            ps.setString(1, log);
            try (ResultSet rs = ps.executeQuery()) {
                if (rs.next()) {
                    signed = rs.getLong(1);
                    keyId = rs.getString(2);
                }
            }
        }
        Frontier tree = size == 0 ? new Frontier() : Frontier.of(size, new TreeNodes(c, log));
        var head = new LogHead(log, origin, tree, last, signed, keyId);
        // The right-edge nodes below the stored levels already in the table (written with the last checkpoint).
        try (PreparedStatement ps = c.prepareStatement("SELECT 1 FROM audit_tree_node WHERE chain_id = ? AND level = ? AND idx = ?")) {
            for (int level = 0; level < TreeNodes.STORED_FROM_LEVEL; level++) {
                if ((size >>> level & 1) == 0) {
                    continue;
                }
                ps.setString(1, log);
                ps.setInt(2, level);
                ps.setLong(3, (size >>> level) - 1);
                try (ResultSet rs = ps.executeQuery()) {
                    if (rs.next()) {
                        head.storedEdge.add(pack(level, (size >>> level) - 1));
                    }
                }
            }
        }
        return head;
    }

    long size() {
        return tree.size();
    }

    /** The size of the log's last checkpoint (0 if it has none). */
    long signedSize() {
        return signedSize;
    }

    /** The last record's time (null for an empty log): later records never take an earlier one. */
    Instant lastTime() {
        return lastTime;
    }

    /** The key id of the last checkpoint signed, or null: a different current key means the key was rotated. */
    String lastSigningKeyId() {
        return signedKeyId;
    }

    boolean checkpointDue(int every, long intervalNanos) {
        long pending = tree.size() - signedSize;
        return pending > 0 && (pending >= every || System.nanoTime() - signedNanos >= intervalNanos);
    }

    /**
     * Places {@code events} after the head. A month's last record gets a checkpoint (so that month can
     * be archived on its own); so does the batch's end when a checkpoint is due by count or time, or
     * {@code finalCheckpoint} is set. Every checkpoint also stores the small subtrees on the tree's right
     * edge at its size, so the log can be archived up to any checkpoint and still prove what follows.
     */
    SealedBatch seal(List<AuditEvent> events, FieldHasher hasher, SigningKey key, int every, long intervalNanos,
            boolean finalCheckpoint, Instant now) {
        Instant signedAt = AuditRecords.truncate(now);
        var out = new SealedBatch(log, tree.size(), events.size());
        Frontier f = tree.copy();
        Instant prev = lastTime;
        long signed = signedSize;
        for (AuditEvent e : events) {
            Instant time = AuditRecords.truncate(e.time());
            if (prev != null && time.isBefore(prev)) {
                time = prev; // record times never go backwards within a log
            }
            if (prev != null && !month(time).equals(month(prev)) && f.size() > signed) {
                out.checkpoints.add(sign(key, f, signedAt));
                edge(f, out);
                signed = f.size();
            }
            RecordText text = AuditRecords.text(e, log, f.size() + 1, time, hasher);
            byte[] leaf = RecordFormat.leafHash(text::field);
            f.append(leaf, (level, index, hash) -> {
                if (level >= TreeNodes.STORED_FROM_LEVEL) {
                    out.nodes.add(new SealedBatch.Node(level, index, Hex.of(hash)));
                }
            });
            out.rows.add(new SealedBatch.Row(text, Hex.of(leaf)));
            prev = time;
        }
        if (f.size() > signed && (finalCheckpoint || f.size() - signed >= every || System.nanoTime() - signedNanos >= intervalNanos)) {
            out.checkpoints.add(sign(key, f, signedAt));
            edge(f, out);
        }
        out.sealedTree = f;
        out.sealedTime = prev;
        return out;
    }

    /** The stored batch's records become the head, and its last checkpoint the signed head. */
    void advance(SealedBatch stored) {
        tree = stored.sealedTree;
        lastTime = stored.sealedTime;
        for (SealedBatch.Node n : stored.nodes) {
            if (n.level() < TreeNodes.STORED_FROM_LEVEL) {
                storedEdge.add(pack(n.level(), n.index()));
            }
        }
        if (!stored.checkpoints.isEmpty()) {
            Checkpoint last = stored.checkpoints.get(stored.checkpoints.size() - 1);
            signedSize = last.size();
            signedKeyId = null;
            signedNanos = System.nanoTime();
        }
    }

    /** The complete subtrees below the stored levels on the right edge at {@code f}'s size, unless already stored. */
    private void edge(Frontier f, SealedBatch out) {
        long size = f.size();
        for (int level = 0; level < TreeNodes.STORED_FROM_LEVEL; level++) {
            byte[] hash = f.edge(level);
            long key = pack(level, (size >>> level) - 1);
            if (hash != null && !storedEdge.contains(key) && out.nodes.stream()
                    .noneMatch(n -> n.level() < TreeNodes.STORED_FROM_LEVEL && pack(n.level(), n.index()) == key)) {
                out.nodes.add(new SealedBatch.Node(level, (size >>> level) - 1, Hex.of(hash)));
            }
        }
    }

    private static long pack(int level, long index) {
        return index << 2 | level; // levels below 4 fit in two bits
    }

    private Checkpoint sign(SigningKey key, Frontier f, Instant at) {
        return key.checkpoint(origin, f.size(), f.root(), at);
    }

    private static YearMonth month(Instant t) {
        return YearMonth.from(t.atOffset(ZoneOffset.UTC));
    }
}
