package dev.quaestor.audit.record;

import dev.quaestor.evidence.Frontier;
import dev.quaestor.evidence.Hex;
import dev.quaestor.evidence.NodeSource;
import dev.quaestor.evidence.RecordField;
import dev.quaestor.evidence.TreeHash;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;

/**
 * A log's tree as the database holds it (docs/audit-format.md, section 2): complete subtrees are read
 * from {@code audit_tree_node} where the writer stored them, and folded from the records' leaf hashes
 * otherwise (below level 4, at most 15 of them; and the whole range for a log begun in format 1,
 * whose older nodes were never stored). A subtree some of whose records were archived is built from
 * its two halves instead, down to the nodes the writer stored at the month's end. Fails only if
 * what it needs is neither stored nor in the table.
 */
public final class TreeNodes implements NodeSource {

    /** Complete subtrees from this level up are stored as they complete. */
    public static final int STORED_FROM_LEVEL = 4;

    private static final String NODE = "SELECT hash FROM audit_tree_node WHERE chain_id = ? AND level = ? AND idx = ?";
    private static final String LEAVES = "SELECT " + AuditRecords.COLUMN_LIST
            + " FROM audit_entry WHERE chain_id = ? AND seq >= ? AND seq <= ? ORDER BY seq";

    /** Records read at a time when folding. */
    private static final int PAGE = 1000;

    private final Connection c;
    private final String log;

    public TreeNodes(Connection c, String log) {
        this.c = c;
        this.log = log;
    }

    @Override
    public byte[] node(int level, long index) {
        try {
            byte[] stored = stored(level, index);
            if (stored != null) {
                return stored;
            }
            byte[] folded = fold(level, index);
            if (folded != null) {
                return folded;
            }
            if (level == 0) {
                throw new IllegalStateException("log " + log + ": record " + (index + 1)
                        + " is missing (archived or deleted) and no stored node covers it");
            }
            return TreeHash.node(node(level - 1, 2 * index), node(level - 1, 2 * index + 1));
        } catch (SQLException e) {
            throw new AuditUnavailableException(e);
        }
    }

    private byte[] stored(int level, long index) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(NODE)) {
            ps.setString(1, log);
            ps.setInt(2, level);
            ps.setLong(3, index);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? Hex.hash(rs.getString(1)) : null;
            }
        }
    }

    /**
     * The subtree's hash from its leaves, in order, or null if any of them is not in the table. Read a page at a
     * time: the connection may be in autocommit, where the driver would hold the whole range (a log begun in format
     * 1 folds subtrees of millions of records) in memory at once.
     */
    private byte[] fold(int level, long index) throws SQLException {
        long first = index << level;
        long count = 1L << level;
        var f = new Frontier();
        try (PreparedStatement ps = c.prepareStatement(LEAVES + " LIMIT " + PAGE)) {
            ps.setString(1, log);
            ps.setLong(3, first + count);
            int read;
            do {
                read = 0;
                ps.setLong(2, first + f.size() + 1);
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        RecordText record = RecordText.read(rs, 1);
                        long seq = Long.parseLong(record.value(RecordField.SEQ));
                        if (seq != first + f.size() + 1) {
                            return null;
                        }
                        f.append(record.leafHash(), null);
                        read++;
                    }
                }
            } while (read == PAGE && f.size() < count);
        }
        return f.size() == count ? f.root() : null;
    }
}
