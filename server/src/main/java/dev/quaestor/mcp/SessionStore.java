package dev.quaestor.mcp;

import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.LoadingCache;
import io.quarkus.narayana.jta.QuarkusTransaction;
import jakarta.enterprise.context.ApplicationScoped;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.Collection;
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
 */
@ApplicationScoped
public class SessionStore {

    /** What a request needs to know about its session. */
    public record Session(String id, String subject, String protocolVersion) {
    }

    private final SecureRandom random = new SecureRandom();
    private final LoadingCache<String, Session> cache;

    SessionStore(TransportConfig config) {
        Duration ttl = config.sessionCacheTtl();
        // Its own thread, not the common pool: the reload runs a transaction, and must not borrow a
        // request's context or a pool that other work relies on.
        ExecutorService refresher = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "quaestor-session-refresh");
            t.setDaemon(true);
            return t;
        });
        this.cache = Caffeine.newBuilder().maximumSize(100_000).expireAfterWrite(ttl)
                .refreshAfterWrite(ttl.multipliedBy(4).dividedBy(5)).executor(refresher).build(SessionStore::load);
    }

    /** The live session as stored, or null (then nothing is cached). */
    private static Session load(String id) {
        return QuarkusTransaction.requiringNew().call(() -> {
            McpSession row = McpSession.findById(id);
            return row == null || row.endedAt != null ? null : new Session(row.id, row.subject, row.protocolVersion);
        });
    }

    public Session open(String subject, String protocolVersion, String clientName) {
        byte[] raw = new byte[24];
        random.nextBytes(raw);
        String id = Base64.getUrlEncoder().withoutPadding().encodeToString(raw);
        var row = new McpSession();
        row.id = id;
        row.subject = subject;
        row.protocolVersion = protocolVersion;
        row.clientName = clientName == null || clientName.length() <= 256 ? clientName : clientName.substring(0, 256);
        row.createdAt = Instant.now();
        QuarkusTransaction.requiringNew().run(row::persist);
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
        QuarkusTransaction.requiringNew().run(() -> McpSession.update("streamId = ?1 where id = ?2", streamId, id));
    }

    /** For each of these sessions that is still live, the id of its current stream ("" if none). */
    public Map<String, String> streamOwners(Collection<String> ids) {
        var out = new HashMap<String, String>();
        List<String> all = List.copyOf(ids);
        for (int i = 0; i < all.size(); i += 500) {
            List<String> chunk = all.subList(i, Math.min(all.size(), i + 500));
            List<McpSession> rows = QuarkusTransaction.requiringNew().call(() ->
                    McpSession.<McpSession>list("id in ?1 and endedAt is null", chunk));
            rows.forEach(r -> out.put(r.id, r.streamId == null ? "" : r.streamId));
        }
        return out;
    }

    /** Ends the session if this subject owns it; false if there was no such live session. */
    public boolean end(String id, String subject) {
        if (find(id, subject).isEmpty()) {
            return false;
        }
        boolean ended = QuarkusTransaction.requiringNew().call(() -> {
            McpSession row = McpSession.findById(id);
            if (row == null || row.endedAt != null) {
                return false;
            }
            row.endedAt = Instant.now();
            return true;
        });
        // After the commit, so that a view read before it (by a request or a background re-read) is dropped.
        cache.invalidate(id);
        return ended;
    }
}
