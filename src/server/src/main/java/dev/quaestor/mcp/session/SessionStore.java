package dev.quaestor.mcp.session;

import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.LoadingCache;
import dev.quaestor.jdbc.Transactions;
import dev.quaestor.mcp.limits.TransportConfig;
import dev.quaestor.mcp.wire.ProtocolRevision;
import io.agroal.api.AgroalDataSource;
import jakarta.enterprise.context.ApplicationScoped;
import java.security.SecureRandom;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Consumer;

/**
 * Sessions in the shared database, with a short-lived per-replica cache. A session belongs to the
 * subject that opened it; it is never found for anyone else. A DELETE is seen at once by the
 * replica that served it and by others within {@code quaestor.http.session-cache-ttl}.
 *
 * <p>A session in use is re-read in the background once its cached view is four fifths of the TTL
 * old, so its requests do not each wait on the database once per TTL; a view is never trusted past
 * the TTL itself (an idle session's next request reads the database).
 *
 * <p><b>Lifetime.</b> A session ends when it has not been used for {@code quaestor.sessions.idle-timeout}
 * and when the latest token it was used with expires: from then on it is not found (404), and the
 * {@link SessionSweeper} deletes its row and its subscriptions. Use is written to the row at most once
 * per tenth of the idle timeout, and a later-expiring token at most once per token.
 *
 * <p>Plain JDBC on the application's pool, each call its own autocommit statement (the sweep: one
 * transaction per batch): a failure comes out as a {@link SessionStoreException}, which callers answer
 * by failing closed (-32005).
 */
@ApplicationScoped
public class SessionStore {

    /**
     * What a request needs to know about its session: {@code revision}, the one negotiated when it opened, which
     * governs its requests; {@code expiresAt}, the latest token's expiry, if known.
     */
    public record Session(String id, String subject, ProtocolRevision revision, String clientInfo, Instant lastUsed,
            Instant expiresAt) {
    }

    /** Why a session ended. */
    public enum End {
        DELETED("deleted"), IDLE("idle-timeout"), TOKEN_EXPIRED("token-expired");

        public final String outcome;

        End(String outcome) {
            this.outcome = outcome;
        }
    }

    /** A session the sweep is removing, with why it ended. */
    public record Expired(Session session, End reason) {
    }

    /** The subject's live sessions ({@link #bindLive}): not ended, used within the idle timeout, token not expired. */
    private static final String LIVE = "subject = ? AND ended_at IS NULL AND COALESCE(last_used_at, created_at) >= ? "
            + "AND (expires_at IS NULL OR expires_at > ?)";

    private final SecureRandom random = new SecureRandom();
    private final AgroalDataSource ds;
    private final LoadingCache<String, Session> cache;
    private final Duration idle;
    private final Duration touchEvery;
    private final SubjectLocks subjectLocks = new SubjectLocks();

    SessionStore(TransportConfig config, SessionConfig lifetime, AgroalDataSource ds) {
        this.ds = ds;
        this.idle = lifetime.idleTimeout();
        this.touchEvery = idle.dividedBy(10);
        Duration ttl = config.sessionCacheTtl();
        // Its own thread, not the common pool: the reload waits on the database, and must not borrow a
        // request's context or a pool that other work relies on.
        ExecutorService refresher = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "quaestor-session-refresh");
            t.setDaemon(true);
            return t;
        });
        this.cache = Caffeine.newBuilder().maximumSize(100_000).expireAfterWrite(ttl)
                .refreshAfterWrite(ttl.multipliedBy(4).dividedBy(5)).executor(refresher).build(this::load);
    }

    /** The live session as stored, or null (then nothing is cached). */
    private Session load(String id) {
        try (Connection c = ds.getConnection();
                PreparedStatement ps = c.prepareStatement("SELECT subject, protocol_version, client_name, last_used_at, "
                        + "expires_at, created_at FROM mcp_session WHERE id = ? AND ended_at IS NULL")) {
            ps.setString(1, id);
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next()) {
                    return null;
                }
                Instant lastUsed = instant(rs, 4);
                return new Session(id, rs.getString(1), revision(rs.getString(2)), rs.getString(3),
                        lastUsed != null ? lastUsed : instant(rs, 6), instant(rs, 5));
            }
        } catch (SQLException e) {
            throw new SessionStoreException("session lookup", e);
        }
    }

    /**
     * Opens a session for this subject unless it holds {@code cap} live sessions already (then empty);
     * {@code tokenExpiry} (may be null) bounds its life until a later token is seen. Counting and inserting are one
     * transaction under a lock on the subject (a transaction-scoped advisory lock on PostgreSQL, which holds across
     * replicas; on H2, a single-process database, a lock in this process), so concurrent openings never pass the cap.
     */
    public Optional<Session> open(String subject, ProtocolRevision revision, String clientInfo, Instant tokenExpiry, int cap) {
        byte[] raw = new byte[24];
        random.nextBytes(raw);
        String id = Base64.getUrlEncoder().withoutPadding().encodeToString(raw);
        String client = dev.quaestor.audit.record.AuditRecords.cut(clientInfo, 256);
        Instant now = Instant.now();
        boolean opened;
        try {
            opened = subjectLocks.underLock(ds, subject, c -> {
                if (live(c, subject, now) >= cap) {
                    return false;
                }
                try (PreparedStatement ps = c.prepareStatement("INSERT INTO mcp_session (id, subject, protocol_version, "
                        + "client_name, created_at, last_used_at, expires_at) VALUES (?, ?, ?, ?, ?, ?, ?)")) {
                    ps.setString(1, id);
                    ps.setString(2, subject);
                    ps.setString(3, revision.name());
                    ps.setString(4, client);
                    ps.setObject(5, utc(now));
                    ps.setObject(6, utc(now));
                    setInstant(ps, 7, tokenExpiry);
                    ps.executeUpdate();
                }
                return true;
            });
        } catch (SQLException e) {
            throw new SessionStoreException("opening a session", e);
        }
        if (!opened) {
            return Optional.empty();
        }
        var s = new Session(id, subject, revision, client, now, tokenExpiry);
        cache.put(id, s);
        return Optional.of(s);
    }

    /**
     * How long until one of the subject's live sessions ends by itself, at the earliest (its idle timeout or its
     * token's expiry, as far as the database knows its last use): what a caller at the cap is told to wait. At least a
     * second; the idle timeout if none is live (the cap was reached and one ended since).
     */
    public Duration untilOneFrees(String subject) {
        Instant now = Instant.now();
        Instant first = null;
        try (Connection c = ds.getConnection(); PreparedStatement ps = c.prepareStatement(
                "SELECT COALESCE(last_used_at, created_at), expires_at FROM mcp_session WHERE " + LIVE)) {
            bindLive(ps, subject, now);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    Instant idleEnd = instant(rs, 1).plus(idle);
                    Instant expires = instant(rs, 2);
                    Instant end = expires != null && expires.isBefore(idleEnd) ? expires : idleEnd;
                    first = first == null || end.isBefore(first) ? end : first;
                }
            }
        } catch (SQLException e) {
            throw new SessionStoreException("session lookup", e);
        }
        Duration wait = first == null ? idle : Duration.between(now, first);
        return wait.compareTo(Duration.ofSeconds(1)) < 0 ? Duration.ofSeconds(1) : wait;
    }

    /**
     * How many live sessions the subject holds (across replicas): not ended, used within the idle timeout, and not
     * past their token's expiry.
     */
    private int live(Connection c, String subject, Instant now) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT COUNT(*) FROM mcp_session WHERE " + LIVE)) {
            bindLive(ps, subject, now);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getInt(1);
            }
        }
    }

    private void bindLive(PreparedStatement ps, String subject, Instant now) throws SQLException {
        ps.setString(1, subject);
        ps.setObject(2, utc(now.minus(idle)));
        ps.setObject(3, utc(now));
    }

    /** The live session with this id owned by this subject, if any (without recording use). */
    public Optional<Session> find(String id, String subject) {
        return find(id, subject, null, false);
    }

    /**
     * The live session with this id owned by this subject, if any, for a request made with a token that
     * expires at {@code tokenExpiry}: its use is recorded, and a token that expires later than the
     * session's latest one extends it.
     */
    public Optional<Session> use(String id, String subject, Instant tokenExpiry) {
        return find(id, subject, tokenExpiry, true);
    }

    private Optional<Session> find(String id, String subject, Instant tokenExpiry, boolean use) {
        if (id == null || id.length() > 64) {
            return Optional.empty();
        }
        Session s = cache.get(id);
        if (s == null || !s.subject().equals(subject)) {
            return Optional.empty();
        }
        Instant now = Instant.now();
        if (endedBy(s, now) != null) {
            return Optional.empty();
        }
        if (use) {
            boolean stale = s.lastUsed() == null || s.lastUsed().plus(touchEvery).isBefore(now);
            boolean later = tokenExpiry != null && (s.expiresAt() == null || tokenExpiry.isAfter(s.expiresAt().plusSeconds(1)));
            if (stale || later) {
                Instant expiry = later ? tokenExpiry : s.expiresAt();
                touch(id, now, expiry);
                s = new Session(s.id(), s.subject(), s.revision(), s.clientInfo(), now, expiry);
                cache.put(id, s);
            }
        }
        return Optional.of(s);
    }

    /** Why this view of a session has ended by {@code now}, or null if it has not. */
    End endedBy(Session s, Instant now) {
        if (s.expiresAt() != null && !now.isBefore(s.expiresAt())) {
            return End.TOKEN_EXPIRED;
        }
        if (s.lastUsed() != null && s.lastUsed().plus(idle).isBefore(now)) {
            return End.IDLE;
        }
        return null;
    }

    private void touch(String id, Instant now, Instant expiry) {
        try (Connection c = ds.getConnection();
                PreparedStatement ps = c.prepareStatement(
                        "UPDATE mcp_session SET last_used_at = ?, expires_at = ? WHERE id = ? AND ended_at IS NULL")) {
            ps.setObject(1, utc(now));
            setInstant(ps, 2, expiry);
            ps.setString(3, id);
            ps.executeUpdate();
        } catch (SQLException e) {
            throw new SessionStoreException("recording a session's use", e);
        }
    }

    /** Records use of sessions whose event stream is open (an open stream is not idleness). */
    public void keepAlive(Collection<String> ids) {
        if (ids.isEmpty()) {
            return;
        }
        Instant now = Instant.now();
        List<String> all = List.copyOf(ids);
        for (int i = 0; i < all.size(); i += 500) {
            List<String> chunk = all.subList(i, Math.min(all.size(), i + 500));
            try (Connection c = ds.getConnection(); PreparedStatement ps = c.prepareStatement(
                    "UPDATE mcp_session SET last_used_at = ? WHERE ended_at IS NULL AND last_used_at < ? AND id IN "
                            + placeholders(chunk.size()))) {
                ps.setObject(1, utc(now));
                ps.setObject(2, utc(now.minus(touchEvery)));
                for (int k = 0; k < chunk.size(); k++) {
                    ps.setString(k + 3, chunk.get(k));
                }
                ps.executeUpdate();
            } catch (SQLException e) {
                throw new SessionStoreException("recording the use of streaming sessions", e);
            }
        }
        // A view in this replica's cache would otherwise still show the older use.
        markUsed(all);
    }

    private void markUsed(List<String> ids) {
        for (String id : ids) {
            Session s = cache.getIfPresent(id);
            if (s != null) {
                cache.put(id, new Session(s.id(), s.subject(), s.revision(), s.clientInfo(), Instant.now(), s.expiresAt()));
            }
        }
    }

    /** Records that this stream is now the session's one stream, replacing any other on any replica. */
    public void claimStream(String id, String streamId) {
        try (Connection c = ds.getConnection();
                PreparedStatement ps = c.prepareStatement("UPDATE mcp_session SET stream_id = ? WHERE id = ?")) {
            ps.setString(1, streamId);
            ps.setString(2, id);
            ps.executeUpdate();
        } catch (SQLException e) {
            throw new SessionStoreException("claiming a stream", e);
        }
    }

    /** For each of these sessions that is still live, the id of its current stream ("" if none). */
    public Map<String, String> streamOwners(Collection<String> ids) {
        var out = new HashMap<String, String>();
        List<String> all = List.copyOf(ids);
        for (int i = 0; i < all.size(); i += 500) {
            List<String> chunk = all.subList(i, Math.min(all.size(), i + 500));
            try (Connection c = ds.getConnection(); PreparedStatement ps = c.prepareStatement(
                    "SELECT id, stream_id FROM mcp_session WHERE ended_at IS NULL AND id IN " + placeholders(chunk.size()))) {
                for (int k = 0; k < chunk.size(); k++) {
                    ps.setString(k + 1, chunk.get(k));
                }
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        String stream = rs.getString(2);
                        out.put(rs.getString(1), stream == null ? "" : stream);
                    }
                }
            } catch (SQLException e) {
                throw new SessionStoreException("reading stream owners", e);
            }
        }
        return out;
    }

    /** Ends the session if this subject owns it; false if there was no such live session. */
    public boolean end(String id, String subject) {
        if (find(id, subject).isEmpty()) {
            return false;
        }
        boolean ended;
        try (Connection c = ds.getConnection();
                PreparedStatement ps = c.prepareStatement("UPDATE mcp_session SET ended_at = ? WHERE id = ? AND ended_at IS NULL")) {
            ps.setObject(1, utc(Instant.now()));
            ps.setString(2, id);
            ended = ps.executeUpdate() == 1;
        } catch (SQLException e) {
            throw new SessionStoreException("ending a session", e);
        }
        // After the commit, so that a view read before it (by a request or a background re-read) is dropped.
        cache.invalidate(id);
        return ended;
    }

    /**
     * Removes up to {@code limit} sessions that have expired by {@code now} (idle, or past their latest token's
     * expiry), in one transaction that holds their rows: {@code recordEnds} runs first (it audits their end) and
     * must return normally for the rows to be deleted; if it throws, nothing is deleted and they are tried
     * again next time. Rows another replica's sweep holds are skipped. Returns the sessions removed.
     */
    public List<Expired> removeExpired(Instant now, int limit, Consumer<List<Expired>> recordEnds) {
        try {
            List<Expired> removed = Transactions.inTransaction(ds, c -> {
                var found = new ArrayList<Expired>();
                try (PreparedStatement ps = c.prepareStatement("SELECT id, subject, protocol_version, client_name, "
                        + "last_used_at, expires_at, created_at FROM mcp_session WHERE ended_at IS NULL AND "
                        + "(expires_at <= ? OR COALESCE(last_used_at, created_at) < ?) ORDER BY id "
                        + "FETCH FIRST " + limit + " ROWS ONLY FOR UPDATE SKIP LOCKED")) {
                    ps.setObject(1, utc(now));
                    ps.setObject(2, utc(now.minus(idle)));
                    try (ResultSet rs = ps.executeQuery()) {
                        while (rs.next()) {
                            Instant lastUsed = instant(rs, 5);
                            var s = new Session(rs.getString(1), rs.getString(2), revision(rs.getString(3)), rs.getString(4),
                                    lastUsed != null ? lastUsed : instant(rs, 7), instant(rs, 6));
                            End why = endedBy(s, now);
                            found.add(new Expired(s, why == null ? End.IDLE : why));
                        }
                    }
                }
                if (found.isEmpty()) {
                    return found;
                }
                recordEnds.accept(found);
                List<String> ids = found.stream().map(e -> e.session().id()).toList();
                try (PreparedStatement ps = c.prepareStatement("DELETE FROM mcp_session WHERE id IN " + placeholders(ids.size()))) {
                    for (int k = 0; k < ids.size(); k++) {
                        ps.setString(k + 1, ids.get(k));
                    }
                    ps.executeUpdate();
                }
                return found;
            });
            removed.forEach(e -> cache.invalidate(e.session().id()));
            return removed;
        } catch (SQLException e) {
            throw new SessionStoreException("removing expired sessions", e);
        }
    }

    /** Deletes the rows of sessions ended by DELETE (their end was recorded then); returns how many. */
    public int purgeEnded() {
        try (Connection c = ds.getConnection();
                PreparedStatement ps = c.prepareStatement("DELETE FROM mcp_session WHERE ended_at IS NOT NULL")) {
            return ps.executeUpdate();
        } catch (SQLException e) {
            throw new SessionStoreException("deleting ended sessions", e);
        }
    }

    /** The 2025 revision a session row names: always one, as only a negotiated revision is ever stored. */
    private static ProtocolRevision revision(String name) {
        return ProtocolRevision.session(name).orElseThrow(() -> new IllegalStateException("a session row names no 2025 revision: "
                + name));
    }

    private static String placeholders(int n) {
        return "(" + String.join(", ", Collections.nCopies(n, "?")) + ")";
    }

    private static OffsetDateTime utc(Instant t) {
        return OffsetDateTime.ofInstant(t, ZoneOffset.UTC);
    }

    private static void setInstant(PreparedStatement ps, int i, Instant t) throws SQLException {
        if (t == null) {
            ps.setNull(i, Types.TIMESTAMP_WITH_TIMEZONE);
        } else {
            ps.setObject(i, utc(t));
        }
    }

    private static Instant instant(ResultSet rs, int i) throws SQLException {
        OffsetDateTime t = rs.getObject(i, OffsetDateTime.class);
        return t == null ? null : t.toInstant();
    }
}
