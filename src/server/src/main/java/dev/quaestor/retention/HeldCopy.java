package dev.quaestor.retention;

import dev.quaestor.audit.read.ProofsAt;
import dev.quaestor.audit.record.SealKey;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Before a month is archived: every record of it that a legal hold (not released) covers is copied into
 * {@code audit_held_record}, with its proof to the last signed checkpoint of its log in that month, in one transaction.
 * A hold covers, within its time range, the records of its case's requests ({@code CASE}), of a subject
 * ({@code SUBJECT}), or under a uri prefix ({@code URI_PREFIX}).
 */
final class HeldCopy {

    /**
     * What was kept for one hold: which hold of which case, what it covers (its scope, and its target only by its HMAC
     * under the case's seal key, as every record of a case's text), how many records.
     */
    record Kept(long holdId, long caseId, String covers, int records) {
    }

    /** A hold's scope and target as a run's record and output say them: {@code SUBJECT target hmac-sha256=…}. */
    static String covers(String scope, String target, SealKey key) {
        return target == null ? scope : scope + " " + key.sealed("target", target);
    }

    private record Held(long holdId, long caseId, String covers, String log, long seq, OffsetDateTime time, String request,
            String subject, String uri) {
    }

    private HeldCopy() {
    }

    /** Each log's last seq in the month: the size of the checkpoint its records are proved to. */
    static Map<String, Long> monthEnds(Connection c, ArchiveMonth m) throws SQLException {
        var ends = new LinkedHashMap<String, Long>();
        try (ResultSet rs = c.createStatement().executeQuery("SELECT chain_id, MAX(seq) FROM \"" + m.partition()
                + "\" WHERE chain_id IS NOT NULL GROUP BY chain_id ORDER BY chain_id")) {
            while (rs.next()) {
                ends.put(rs.getString(1), rs.getLong(2));
            }
        }
        return ends;
    }

    /** Whether the month's partition holds no row at all (one opened ahead that never received a record). */
    static boolean empty(Connection c, ArchiveMonth m) throws SQLException {
        try (ResultSet rs = c.createStatement().executeQuery("SELECT NOT EXISTS (SELECT 1 FROM \"" + m.partition() + "\")")) {
            rs.next();
            return rs.getBoolean(1);
        }
    }

    /** The logs of the month whose last record has no signed checkpoint (the month cannot be archived, nor proved to). */
    static List<String> unsigned(Connection c, Map<String, Long> ends) throws SQLException {
        var out = new ArrayList<String>();
        try (PreparedStatement ps = c.prepareStatement("SELECT 1 FROM audit_checkpoint WHERE chain_id = ? AND seq = ?")) {
            for (var e : ends.entrySet()) {
                ps.setString(1, e.getKey());
                ps.setLong(2, e.getValue());
                try (ResultSet rs = ps.executeQuery()) {
                    if (!rs.next()) {
                        out.add(e.getKey() + " at seq " + e.getValue());
                    }
                }
            }
        }
        return out;
    }

    /** The month's records each hold not yet released covers: the hold as {@code h}, the record as {@code e}. */
    private static String heldRecords(ArchiveMonth m) {
        return " FROM legal_hold h JOIN \"" + m.partition()
                + "\" e ON e.event_time >= h.from_time AND (h.to_time IS NULL OR e.event_time < h.to_time)"
                + " AND ((h.scope = 'SUBJECT' AND e.subject = h.target) OR (h.scope = 'URI_PREFIX' AND starts_with(e.uri, h.target))"
                + " OR (h.scope = 'CASE' AND e.request_id IN (SELECT r.request_id FROM audit_case_request r WHERE r.case_id = h.case_id)))"
                + " WHERE h.released_at IS NULL AND e.chain_id IS NOT NULL";
    }

    /**
     * How many of the month's records a hold covers now that {@link #copy} did not keep for it: a hold put or widened,
     * or a request added to a held case, since. Zero when every held record is kept.
     */
    static long notKept(Connection c, ArchiveMonth m) throws SQLException {
        try (ResultSet rs = c.createStatement().executeQuery("SELECT count(*)" + heldRecords(m) + " AND NOT EXISTS (SELECT 1"
                + " FROM audit_held_record k WHERE k.hold_id = h.id AND k.chain_id = e.chain_id AND k.seq = e.seq)")) {
            rs.next();
            return rs.getLong(1);
        }
    }

    /** Copies the month's held records with their proofs; commits; returns what was kept, by hold. */
    static List<Kept> copy(Connection c, ArchiveMonth m, Map<String, Long> ends, long runId) throws SQLException {
        var kept = new LinkedHashMap<Long, Kept>();
        boolean auto = c.getAutoCommit();
        c.setAutoCommit(false);
        try {
            sealKeys(c);
            var held = new ArrayList<Held>();
            try (ResultSet rs = c.createStatement().executeQuery("SELECT h.id, h.case_id, h.scope, h.target,"
                    + " (SELECT k.seal_key FROM audit_case k WHERE k.id = h.case_id), e.chain_id, e.seq, e.event_time, e.request_id,"
                    + " e.subject, e.uri" + heldRecords(m) + " ORDER BY h.id, e.chain_id, e.seq")) {
                while (rs.next()) {
                    byte[] key = rs.getBytes(5);
                    held.add(new Held(rs.getLong(1), rs.getLong(2), covers(rs.getString(3), rs.getString(4), key == null ? null : SealKey.of(key)),
                            rs.getString(6), rs.getLong(7), rs.getObject(8, OffsetDateTime.class), rs.getString(9), rs.getString(10),
                            rs.getString(11)));
                }
            }
            keep(c, held, ends, runId, kept);
            c.commit();
        } catch (SQLException | RuntimeException e) {
            c.rollback();
            throw e;
        } finally {
            c.setAutoCommit(auto);
        }
        return List.copyOf(kept.values());
    }

    /**
     * Sets a seal key for each case with a hold not released that has a target and whose case has no key yet (opened
     * before there were keys), in the caller's transaction, so that the run's record can seal the target.
     */
    private static void sealKeys(Connection c) throws SQLException {
        var unkeyed = new ArrayList<Long>();
        try (ResultSet rs = c.createStatement().executeQuery("SELECT DISTINCT k.id FROM legal_hold h JOIN audit_case k ON k.id = h.case_id"
                + " WHERE h.released_at IS NULL AND h.target IS NOT NULL AND k.seal_key IS NULL ORDER BY k.id")) {
            while (rs.next()) {
                unkeyed.add(rs.getLong(1));
            }
        }
        try (PreparedStatement set = c.prepareStatement("UPDATE audit_case SET seal_key = ? WHERE id = ? AND seal_key IS NULL")) {
            for (long id : unkeyed) {
                set.setBytes(1, SealKey.fresh().bytes());
                set.setLong(2, id);
                set.executeUpdate();
            }
        }
    }

    private static void keep(Connection c, List<Held> held, Map<String, Long> ends, long runId, Map<Long, Kept> kept) throws SQLException {
        try (PreparedStatement ins = c.prepareStatement("INSERT INTO audit_held_record (hold_id, chain_id, seq, event_time,"
                + " request_id, subject, uri, checkpoint_size, proof, run_id, kept_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
                + " ON CONFLICT (hold_id, chain_id, seq) DO NOTHING")) {
            var proofs = new ProofsAt(c);
            var now = OffsetDateTime.now(ZoneOffset.UTC);
            for (Held h : held) {
                long size = ends.get(h.log());
                String proof = proofs.proof(h.log(), h.seq(), size).orElseThrow(() -> new SQLException("no proof of record "
                        + h.seq() + " of log " + h.log() + " to its checkpoint of size " + size));
                ins.setLong(1, h.holdId());
                ins.setString(2, h.log());
                ins.setLong(3, h.seq());
                ins.setObject(4, h.time());
                ins.setString(5, h.request());
                ins.setString(6, h.subject());
                ins.setString(7, h.uri());
                ins.setLong(8, size);
                ins.setString(9, proof);
                ins.setLong(10, runId);
                ins.setObject(11, now);
                ins.executeUpdate();
                kept.merge(h.holdId(), new Kept(h.holdId(), h.caseId(), h.covers(), 1),
                        (a, b) -> new Kept(a.holdId(), a.caseId(), a.covers(), a.records() + 1));
            }
        }
    }
}
