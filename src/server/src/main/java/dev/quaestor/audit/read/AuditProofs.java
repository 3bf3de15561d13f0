package dev.quaestor.audit.read;

import dev.quaestor.audit.anchor.PinnedTsaRoots;
import dev.quaestor.audit.config.AuditPools;
import dev.quaestor.audit.record.AuditRecords;
import dev.quaestor.audit.record.RecordText;
import dev.quaestor.audit.record.TreeNodes;
import dev.quaestor.audit.record.LiveLog;

import dev.quaestor.evidence.RecordField;
import dev.quaestor.evidence.RecordProof;
import dev.quaestor.evidence.bundle.BundleWriter;
import dev.quaestor.evidence.check.TrustedKeys;
import dev.quaestor.evidence.prove.ProofBuilder;
import io.agroal.api.AgroalDataSource;
import jakarta.enterprise.context.ApplicationScoped;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collection;
import java.util.List;
import java.util.Optional;

/**
 * Proofs from the audit log, on the audit-read pool ({@link AuditPools#READ}): a request's records with their
 * inclusion paths, consistency between two checkpointed sizes of a log, and the signed checkpoints they lead to.
 */
@ApplicationScoped
public class AuditProofs {

    /** Why records cannot be proven: which of them are missing, or when a proof will be possible. */
    public enum Gap {
        /** No record has a request id asked for. */
        NO_RECORD,
        /** A record is not under a signed checkpoint yet: there will be a proof in a few seconds. */
        NOT_YET,
        /**
         * A record can never be proven: it is in format 1, was changed since it was written, or its proof does not
         * verify (the log's tree or checkpoint was changed after it was signed).
         */
        NEVER
    }

    /** A request's proof file, or why there is none ({@code unavailable} in words, {@code gap} by kind). */
    public record Proof(String file, int records, String unavailable, Gap gap) {
    }

    /**
     * The last signed checkpoint of a log: its size (the seq it covers), when it was written, and its note (with its
     * time-stamp's line, if anchored).
     */
    public record LastCheckpoint(String log, long size, Instant signedAt, String note) {
    }

    /** A checkpoint a record is proved against: its size and its note. */
    private record Proving(long size, String note) {
    }

    private final AgroalDataSource ds;
    private final LiveLog log;
    private final PinnedTsaRoots tsaRoots;

    AuditProofs(@io.quarkus.agroal.DataSource(AuditPools.READ) AgroalDataSource ds, LiveLog log, PinnedTsaRoots tsaRoots) {
        this.ds = ds;
        this.log = log;
        this.tsaRoots = tsaRoots;
    }

    /**
     * The proof file (docs/audit-format.md, section 4) of every record of a request: each record with
     * its inclusion path to the first anchored checkpoint of its log that covers it (else the latest), with its
     * time-stamp. Nothing of any other record is in it but hashes. A record not yet under a checkpoint has no
     * proof until the next one is signed.
     */
    public Proof proof(String requestId) {
        Proven proven = proven(List.of(requestId));
        if (proven.unavailable() != null) {
            return new Proof(null, proven.found(), proven.unavailable(), proven.gap());
        }
        var file = new StringBuilder();
        proven.records().forEach(r -> file.append(r.proof().format()));
        return new Proof(file.toString(), proven.records().size(), null, null);
    }

    /** Records with their proofs, or why not all of them can be proven yet (and how many records were found by then). */
    public record Proven(List<BundleWriter.ProvenRecord> records, int found, String unavailable, Gap gap) {
        static Proven not(int found, Gap gap, String why) {
            return new Proven(List.of(), found, why, gap);
        }
    }

    /**
     * Every record of each request, each with its inclusion path to the first anchored checkpoint of its log that
     * covers it (else the latest) and that checkpoint, read in one transaction. Not all of them if a request has no record, a record is in format 1, or one is not under a
     * signed checkpoint yet.
     */
    public Proven proven(Collection<String> requestIds) {
        try (Connection c = ds.getConnection()) {
            c.setAutoCommit(false);
            var out = new ArrayList<BundleWriter.ProvenRecord>();
            var verifier = new ProofSelfCheck(TrustedKeys.of(log.trustedKeys(), List.of()), tsaRoots.check().orElse(null));
            for (String requestId : requestIds) {
                var rows = new ArrayList<RecordText>();
                try (PreparedStatement ps = c.prepareStatement("SELECT " + AuditRecords.COLUMN_LIST
                        + " FROM audit_entry WHERE request_id = ? AND chain_id IS NOT NULL ORDER BY chain_id, seq")) {
                    ps.setString(1, requestId);
                    try (ResultSet rs = ps.executeQuery()) {
                        while (rs.next()) {
                            rows.add(RecordText.read(rs, 1));
                        }
                    }
                }
                if (rows.isEmpty()) {
                    return Proven.not(out.size(), Gap.NO_RECORD, "no record has request id " + requestId);
                }
                for (RecordText r : rows) {
                    if (r.isVersionOne()) {
                        return Proven.not(out.size() + rows.size(), Gap.NEVER, "the records of request " + requestId + " are in format 1, which has no proofs of one record");
                    }
                    if (!r.matchesItsHash()) {
                        return Proven.not(out.size() + rows.size(), Gap.NEVER, r.alteredSince() + " (request " + requestId + ")");
                    }
                    String logId = r.value(RecordField.LOG);
                    long seq = Long.parseLong(r.value(RecordField.SEQ));
                    Optional<Proving> checkpoint = provingCheckpoint(c, logId, seq);
                    if (checkpoint.isEmpty()) {
                        return Proven.not(out.size() + rows.size(), Gap.NOT_YET, "record " + seq + " of log " + logId + " (request " + requestId
                                + ") is not under a signed checkpoint yet; ask again in a few seconds");
                    }
                    var path = new ProofBuilder(new TreeNodes(c, logId)).inclusion(seq - 1, checkpoint.get().size());
                    var proof = new RecordProof(r.canonicalBytes(), seq - 1, path, checkpoint.get().note());
                    String failure = verifier.failure(proof);
                    if (failure != null) {
                        return Proven.not(out.size() + rows.size(), Gap.NEVER, "record " + seq + " of log " + logId
                                + " (request " + requestId + ") does not verify against the checkpoint at size "
                                + checkpoint.get().size() + ": " + failure + "; the log was changed after it was"
                                + " signed, and nothing is proven from it (the audit check, /audit/verify, reports the log's state)");
                    }
                    out.add(new BundleWriter.ProvenRecord(r.canonical().fields(), r.hash(), proof));
                }
            }
            c.commit();
            return new Proven(out, out.size(), null, null);
        } catch (SQLException e) {
            throw AuditQueryTimeout.of(e);
        }
    }

    /**
     * The consistency proof (docs/audit-format.md, section 5) between two checkpointed sizes of a log,
     * or empty if either size has no checkpoint.
     */
    public Optional<String> consistency(String logId, long from, long to) {
        try (Connection c = ds.getConnection()) {
            c.setAutoCommit(false);
            if (from > to || checkpointAt(c, logId, from).isEmpty() || checkpointAt(c, logId, to).isEmpty()) {
                return Optional.empty();
            }
            var sb = new StringBuilder("quaestor-consistency/v1\n").append(log.originOf(logId)).append('\n')
                    .append(from).append(' ').append(to).append('\n');
            for (byte[] h : new ProofBuilder(new TreeNodes(c, logId)).consistency(from, to)) {
                sb.append(Base64.getEncoder().encodeToString(h)).append('\n');
            }
            c.commit();
            return Optional.of(sb.toString());
        } catch (SQLException e) {
            throw AuditQueryTimeout.of(e);
        }
    }

    /** The signed note of a log's checkpoint at exactly {@code size} (with its time-stamp's line, if anchored). */
    public Optional<String> checkpointAt(String logId, long size) {
        try (Connection c = ds.getConnection()) {
            return checkpointAt(c, logId, size);
        } catch (SQLException e) {
            throw AuditQueryTimeout.of(e);
        }
    }

    /** Each log's last checkpoint, by log. */
    public List<LastCheckpoint> lastCheckpoints() {
        var out = new ArrayList<LastCheckpoint>();
        try (Connection c = ds.getConnection(); PreparedStatement ps = c.prepareStatement(
                "SELECT k.chain_id, k.seq, k.signed_at, k.note, " + StoredLog.ANCHOR + " FROM audit_checkpoint k JOIN (SELECT chain_id,"
                        + " MAX(seq) AS seq FROM audit_checkpoint GROUP BY chain_id) last ON last.chain_id = k.chain_id"
                        + " AND last.seq = k.seq " + StoredLog.ANCHORED + " ORDER BY k.chain_id")) {
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.add(new LastCheckpoint(rs.getString(1), rs.getLong(2), Instant.parse(rs.getString(3)),
                            rs.getString(4) == null ? null : StoredLog.anchored(rs.getString(4), rs.getString(5))));
                }
            }
            return out;
        } catch (SQLException e) {
            throw AuditQueryTimeout.of(e);
        }
    }

    private static Optional<String> checkpointAt(Connection c, String logId, long size) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT k.note, " + StoredLog.ANCHOR + " FROM audit_checkpoint k "
                + StoredLog.ANCHORED + " WHERE k.chain_id = ? AND k.seq = ? AND k.note IS NOT NULL")) {
            ps.setString(1, logId);
            ps.setLong(2, size);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? Optional.of(StoredLog.anchored(rs.getString(1), rs.getString(2))) : Optional.empty();
            }
        }
    }

    /**
     * The format-2 checkpoint of the log to prove {@code seq} against: the first that covers it and is anchored (its
     * token's time is the closest bound on when the record existed), else the latest that covers it; its size and
     * its note, with its time-stamp's line if anchored.
     */
    private static Optional<Proving> provingCheckpoint(Connection c, String logId, long seq) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT k.seq, k.note, " + StoredLog.ANCHOR + " FROM audit_checkpoint k "
                + StoredLog.ANCHORED + " WHERE k.chain_id = ? AND k.seq >= ? AND k.note IS NOT NULL"
                + " ORDER BY CASE WHEN " + StoredLog.ANCHOR + " IS NULL THEN 1 ELSE 0 END,"
                + " CASE WHEN " + StoredLog.ANCHOR + " IS NULL THEN -k.seq ELSE k.seq END LIMIT 1")) {
            ps.setString(1, logId);
            ps.setLong(2, seq);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? Optional.of(new Proving(rs.getLong(1), StoredLog.anchored(rs.getString(2), rs.getString(3))))
                        : Optional.empty();
            }
        }
    }
}
