package dev.quaestor.audit.read;

import dev.quaestor.audit.record.AuditRecords;
import dev.quaestor.audit.record.RecordText;
import dev.quaestor.audit.record.TreeNodes;

import dev.quaestor.evidence.RecordProof;
import dev.quaestor.evidence.prove.ProofBuilder;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Optional;

/**
 * Proofs of chosen records to one given checkpoint of their log (docs/audit-format.md, section 4), on a connection the
 * caller holds: the retention job's, as the database owner, proving each held record to the last signed checkpoint of
 * its month before the month is archived. Nothing of any other record is in a proof but hashes.
 */
public final class ProofsAt {

    private final Connection c;

    public ProofsAt(Connection c) {
        this.c = c;
    }

    /**
     * The proof of record {@code seq} of {@code logId} to the log's checkpoint of {@code size} records (with its
     * time-stamp's line, if anchored); empty when there is no such checkpoint, no such record, or it is in format 1.
     */
    public Optional<String> proof(String logId, long seq, long size) throws SQLException {
        if (seq < 1 || seq > size) {
            return Optional.empty();
        }
        RecordText row = null;
        try (PreparedStatement ps = c.prepareStatement("SELECT " + AuditRecords.COLUMN_LIST
                + " FROM audit_entry WHERE chain_id = ? AND seq = ?")) {
            ps.setString(1, logId);
            ps.setLong(2, seq);
            try (ResultSet rs = ps.executeQuery()) {
                if (rs.next()) {
                    row = RecordText.read(rs, 1);
                }
            }
        }
        if (row == null || row.isVersionOne()) {
            return Optional.empty();
        }
        if (!row.matchesItsHash()) {
            throw new SQLException(row.alteredSince());
        }
        String note = null;
        try (PreparedStatement ps = c.prepareStatement("SELECT k.note, " + StoredLog.ANCHOR + " FROM audit_checkpoint k "
                + StoredLog.ANCHORED + " WHERE k.chain_id = ? AND k.seq = ?")) {
            ps.setString(1, logId);
            ps.setLong(2, size);
            try (ResultSet rs = ps.executeQuery()) {
                if (rs.next() && rs.getString(1) != null) {
                    note = StoredLog.anchored(rs.getString(1), rs.getString(2));
                }
            }
        }
        if (note == null) {
            return Optional.empty();
        }
        var path = new ProofBuilder(new TreeNodes(c, logId)).inclusion(seq - 1, size);
        return Optional.of(new RecordProof(row.canonicalBytes(), seq - 1, path, note).format());
    }
}
