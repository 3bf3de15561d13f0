package dev.quaestor.cases;

import io.agroal.api.AgroalDataSource;
import io.quarkus.qute.TemplateData;
import jakarta.enterprise.context.ApplicationScoped;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;

/**
 * The records legal holds kept: before a month is archived, retention copies each record a hold covers into
 * {@code audit_held_record} with its proof (a C2SP tlog-proof that carries the record itself) to the month's last signed
 * checkpoint, so the record stays provable after its month has left the database. Read here for a case's page and for a
 * request whose month is archived. Whoever asks has checked that the caller may see what they ask for.
 */
@ApplicationScoped
public class HeldRecords {

    /** Held copies read at most for one page. */
    public static final int LIMIT = 1000;

    /** One held copy: the hold and case it was kept for, the record's place in its log, what it was about, its proof. */
    @TemplateData
    public record Held(long holdId, long caseId, String log, long seq, Instant time, String requestId, String subject, String uri,
            long checkpointSize, String proof, Instant keptAt) {
    }

    private static final String COLUMNS = "SELECT r.hold_id, h.case_id, r.chain_id, r.seq, r.event_time, r.request_id, r.subject,"
            + " r.uri, r.checkpoint_size, r.proof, r.kept_at FROM audit_held_record r JOIN legal_hold h ON h.id = r.hold_id";

    private final AgroalDataSource ds;

    HeldRecords(AgroalDataSource ds) {
        this.ds = ds;
    }

    /** The records the case's holds kept, by hold, then log and position (at most {@link #LIMIT}). */
    public List<Held> ofCase(long caseId) {
        return read(COLUMNS + " WHERE h.case_id = ? ORDER BY r.hold_id, r.chain_id, r.seq LIMIT " + LIMIT, caseId);
    }

    /** The held copies of one request's records, under every hold that kept them. */
    public List<Held> ofRequest(String requestId) {
        return read(COLUMNS + " WHERE r.request_id = ? ORDER BY r.chain_id, r.seq, r.hold_id LIMIT " + LIMIT, requestId);
    }

    private List<Held> read(String sql, Object key) {
        var out = new ArrayList<Held>();
        try (Connection c = ds.getConnection(); PreparedStatement ps = c.prepareStatement(sql)) {
            ps.setObject(1, key);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.add(new Held(rs.getLong(1), rs.getLong(2), rs.getString(3), rs.getLong(4),
                            rs.getObject(5, OffsetDateTime.class).toInstant(), rs.getString(6), rs.getString(7), rs.getString(8),
                            rs.getLong(9), rs.getString(10), rs.getObject(11, OffsetDateTime.class).toInstant()));
                }
            }
        } catch (SQLException e) {
            throw new IllegalStateException("the held records could not be read: " + e.getMessage(), e);
        }
        return out;
    }
}
