package dev.quaestor.console;

import dev.quaestor.evidence.Hex;
import io.agroal.api.AgroalDataSource;
import io.quarkus.scheduler.Scheduled;
import jakarta.enterprise.context.ApplicationScoped;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import org.jboss.logging.Logger;

/**
 * Console sessions on the server, in the shared database ({@code console_session}), so that every replica sees a
 * sign-out at once: a session is opened when a person signs in ({@link ConsoleSignIn}), checked on every console
 * request ({@link ConsoleSessionCheck}) and ended by signing out, by the idle timeout, or at the latest after
 * {@code quaestor.console.max-session}. The browser holds the session's random token in a cookie; the table holds
 * only its SHA-256, the subject it belongs to, and when it was last used.
 *
 * <p>Plain JDBC on the application's pool, each call one autocommit statement. Use is written at most every few
 * seconds, not on every page. A failure throws {@link IllegalStateException}: the request is then refused, never
 * let through unchecked.
 */
@ApplicationScoped
public class ConsoleSessions {

    private static final Logger LOG = Logger.getLogger(ConsoleSessions.class);
    /** Use is written back when the stored time is older than this; the idle timeout is minutes. */
    private static final Duration TOUCH_EVERY = Duration.ofSeconds(10);

    /** Why a session ended. */
    public enum End {
        SIGNED_OUT("signed-out"), IDLE("idle-timeout"), EXPIRED("expired");

        final String reason;

        End(String reason) {
            this.reason = reason;
        }
    }

    /**
     * A session as stored. {@code id} is the SHA-256 of its token (hex), which records name it by (a prefix of it);
     * {@code endReason} is null while it lasts.
     */
    public record Session(String id, String subject, Instant startedAt, Instant lastSeenAt, Instant expiresAt,
            Instant endedAt, String endReason) {

        /** Why the session is over at {@code now}, or null if it is live. */
        public String over(Instant now, Duration idleTimeout) {
            if (endReason != null) {
                return endReason;
            }
            if (!now.isBefore(expiresAt)) {
                return End.EXPIRED.reason;
            }
            return now.isAfter(lastSeenAt.plus(idleTimeout)) ? End.IDLE.reason : null;
        }

        /** How records name the session: the first 16 hex digits of its id. */
        public String ref() {
            return id.substring(0, 16);
        }
    }

    private final AgroalDataSource ds;
    private final Duration idleTimeout;
    private final Duration maxSession;

    ConsoleSessions(AgroalDataSource ds, ConsoleConfig config) {
        this.ds = ds;
        this.idleTimeout = config.idleTimeout();
        this.maxSession = config.maxSession();
    }

    public Duration idleTimeout() {
        return idleTimeout;
    }

    /** Opens a session for {@code subject}; returns its token, for the browser's cookie (never stored). */
    public Opened open(String subject, Instant now) {
        String token = ConsoleKeys.random(32);
        String id = idOf(token);
        try (Connection c = ds.getConnection();
                PreparedStatement ps = c.prepareStatement("INSERT INTO console_session (id_hash, subject, started_at, "
                        + "last_seen_at, expires_at) VALUES (?, ?, ?, ?, ?)")) {
            ps.setString(1, id);
            ps.setString(2, subject);
            ps.setTimestamp(3, Timestamp.from(now));
            ps.setTimestamp(4, Timestamp.from(now));
            ps.setTimestamp(5, Timestamp.from(now.plus(maxSession)));
            ps.executeUpdate();
        } catch (SQLException e) {
            throw new IllegalStateException("console session store: " + e.getMessage(), e);
        }
        return new Opened(token, new Session(id, subject, now, now, now.plus(maxSession), null, null));
    }

    /** A session just opened, with the token for the browser's cookie. */
    public record Opened(String token, Session session) {
    }

    /** The session a cookie's token names, live or ended, or null if there is none (never was, or its row is gone). */
    public Session find(String token) {
        if (token == null || token.isEmpty() || token.length() > 128) {
            return null;
        }
        try (Connection c = ds.getConnection();
                PreparedStatement ps = c.prepareStatement("SELECT subject, started_at, last_seen_at, expires_at, ended_at, "
                        + "end_reason FROM console_session WHERE id_hash = ?")) {
            String id = idOf(token);
            ps.setString(1, id);
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next()) {
                    return null;
                }
                Timestamp ended = rs.getTimestamp(5);
                return new Session(id, rs.getString(1), rs.getTimestamp(2).toInstant(), rs.getTimestamp(3).toInstant(),
                        rs.getTimestamp(4).toInstant(), ended == null ? null : ended.toInstant(), rs.getString(6));
            }
        } catch (SQLException e) {
            throw new IllegalStateException("console session store: " + e.getMessage(), e);
        }
    }

    /** Records that a live session was used at {@code now} (written only when the stored time is a few seconds old). */
    public void touch(Session s, Instant now) {
        if (now.isBefore(s.lastSeenAt().plus(TOUCH_EVERY))) {
            return;
        }
        try (Connection c = ds.getConnection();
                PreparedStatement ps = c.prepareStatement("UPDATE console_session SET last_seen_at = ? WHERE id_hash = ? "
                        + "AND ended_at IS NULL AND last_seen_at < ?")) {
            ps.setTimestamp(1, Timestamp.from(now));
            ps.setString(2, s.id());
            ps.setTimestamp(3, Timestamp.from(now));
            ps.executeUpdate();
        } catch (SQLException e) {
            throw new IllegalStateException("console session store: " + e.getMessage(), e);
        }
    }

    /** Ends a live session; returns false if it had already ended (or is not there). */
    public boolean end(String id, End why, Instant now) {
        try (Connection c = ds.getConnection();
                PreparedStatement ps = c.prepareStatement("UPDATE console_session SET ended_at = ?, end_reason = ? "
                        + "WHERE id_hash = ? AND ended_at IS NULL")) {
            ps.setTimestamp(1, Timestamp.from(now));
            ps.setString(2, why.reason);
            ps.setString(3, id);
            return ps.executeUpdate() == 1;
        } catch (SQLException e) {
            throw new IllegalStateException("console session store: " + e.getMessage(), e);
        }
    }

    /**
     * Deletes the rows of sessions past their expiry: by then neither the session nor a copy of its cookies can be
     * used, since a cookie whose session has no row is refused too. Every replica runs it; the deletes are idempotent.
     */
    @Scheduled(identity = "console-session-sweep", every = "10m", delayed = "1m")
    void sweep() {
        try (Connection c = ds.getConnection();
                PreparedStatement ps = c.prepareStatement("DELETE FROM console_session WHERE expires_at < ?")) {
            ps.setTimestamp(1, Timestamp.from(Instant.now()));
            int n = ps.executeUpdate();
            if (n > 0) {
                LOG.debugf("deleted %d expired console sessions", n);
            }
        } catch (SQLException e) {
            LOG.warnf("console session sweep failed (will retry): %s", e.getMessage());
        }
    }

    /** The stored id of a token: hex SHA-256 of its text. */
    static String idOf(String token) {
        try {
            return Hex.of(MessageDigest.getInstance("SHA-256").digest(token.getBytes(StandardCharsets.US_ASCII)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
