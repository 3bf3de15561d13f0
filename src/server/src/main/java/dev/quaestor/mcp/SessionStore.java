package dev.quaestor.mcp;

import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.LoadingCache;
import io.agroal.api.AgroalDataSource;
import jakarta.enterprise.context.ApplicationScoped;
import java.security.SecureRandom;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.Base64;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * Sessions in the shared database, with a short-lived per-replica cache. A session belongs to the
 * subject that opened it; it is never found for anyone else. A DELETE is seen at once by the
 * replica that served it and by others within {@code quaestor.http.session-cache-ttl}.
 *
 * <p>A session in use is re-read in the background once its cached view is four fifths of the TTL
 * old, so its requests do not each wait on the database once per TTL; a view is never trusted past
 * the TTL itself (an idle session's next request reads the database).
 *
 * <p>Plain JDBC on the application's pool, each call its own autocommit statement: a failure comes
 * out as a {@link SessionStoreException}, which callers answer by failing closed (-32005).
 */
@ApplicationScoped
public class SessionStore {

    /** What a request needs to know about its session. */
    public record Session(String id, String subject, String protocolVersion) {
    }

    private final SecureRandom random = new SecureRandom();
    private final AgroalDataSource ds;
    private final LoadingCache<String, Session> cache;

    SessionStore(TransportConfig config, AgroalDataSource ds) {
        this.ds = ds;
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
                PreparedStatement ps = c.prepareStatement(
                        "SELECT subject, protocol_version FROM mcp_session WHERE id = ? AND ended_at IS NULL")) {
            ps.setString(1, id);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? new Session(id, rs.getString(1), rs.getString(2)) : null;
            }
        } catch (SQLException e) {
            throw new SessionStoreException("session lookup", e);
        }
    }

    public Session open(String subject, String protocolVersion, String clientName) {
        byte[] raw = new byte[24];
        random.nextBytes(raw);
        String id = Base64.getUrlEncoder().withoutPadding().encodeToString(raw);
        String client = clientName == null || clientName.length() <= 256 ? clientName : clientName.substring(0, 256);
        try (Connection c = ds.getConnection();
                PreparedStatement ps = c.prepareStatement(
                        "INSERT INTO mcp_session (id, subject, protocol_version, client_name, created_at) VALUES (?, ?, ?, ?, ?)")) {
            ps.setString(1, id);
            ps.setString(2, subject);
            ps.setString(3, protocolVersion);
            ps.setString(4, client);
            ps.setObject(5, now());
            ps.executeUpdate();
        } catch (SQLException e) {
            throw new SessionStoreException("opening a session", e);
        }
        var s = new Session(id, subject, protocolVersion);
        cache.put(id, s);
        return s;
    }

    /** The live session with this id owned by this subject, if any. */
    public Optional<Session> find(String id, String subject) {
        if (id == null || id.length() > 64) {
            return Optional.empty();
        }
        Session s = cache.get(id);
        if (s == null) {
            return Optional.empty();
        }
        return s.subject().equals(subject) ? Optional.of(s) : Optional.empty();
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
            String in = "(" + String.join(", ", Collections.nCopies(chunk.size(), "?")) + ")";
            try (Connection c = ds.getConnection(); PreparedStatement ps = c.prepareStatement(
                    "SELECT id, stream_id FROM mcp_session WHERE ended_at IS NULL AND id IN " + in)) {
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
            ps.setObject(1, now());
            ps.setString(2, id);
            ended = ps.executeUpdate() == 1;
        } catch (SQLException e) {
            throw new SessionStoreException("ending a session", e);
        }
        // After the commit, so that a view read before it (by a request or a background re-read) is dropped.
        cache.invalidate(id);
        return ended;
    }

    private static OffsetDateTime now() {
        return OffsetDateTime.now(ZoneOffset.UTC);
    }
}
