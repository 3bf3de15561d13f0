package dev.quaestor.subscription;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.quaestor.identity.Identity;
import dev.quaestor.jdbc.Transactions;
import io.agroal.api.AgroalDataSource;
import jakarta.enterprise.context.ApplicationScoped;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HexFormat;
import java.util.List;
import java.util.Set;

/**
 * Subscriptions in the shared database. Any replica may record one (the subscribe POST); the
 * replica holding the session's stream finds it when content changes. Each row keeps the
 * subscriber's identity so that every notification is judged again under the policy of the moment.
 * Plain JDBC on the application's pool; a database failure comes out as {@link SubscriptionStoreException}.
 */
@ApplicationScoped
public class SubscriptionStore {

    /** A stored subscription as the notifier needs it. */
    public record Stored(String sessionId, String uri, Subscriber subscriber) {
    }

    /** The identity fields besides the subject, as stored in the {@code identity} column. */
    record IdentityFields(String client, String tenant, Set<String> roles, Set<String> groups, Set<String> scopes) {
    }

    private static final int CHUNK = 500;

    private final ObjectMapper json;
    private final AgroalDataSource ds;
    private final int maxPerSession;

    SubscriptionStore(ObjectMapper json, SubscriptionConfig config, AgroalDataSource ds) {
        this.json = json;
        this.ds = ds;
        this.maxPerSession = config.maxPerSession();
    }

    /**
     * Records the subscription: true if this call stored it, false if the session held it already (subscribing again
     * keeps the one subscription and stores this subscriber, the identity and address now, with it);
     * throws {@link SubscriptionLimitException} when the session is full.
     */
    public boolean add(String sessionId, String uri, Subscriber who) {
        String id = idOf(sessionId, uri);
        String identity = encode(who.identity());
        try {
            return insert(id, sessionId, uri, who, identity);
        } catch (SubscriptionLimitException e) {
            throw e;
        } catch (RuntimeException e) {
            // Two identical subscribes at once: the loser's insert collides with the winner's row. Any other failure
            // is a failure, even if an older row exists: its subscriber was not replaced.
            if (!duplicateKey(e)) {
                throw e;
            }
            boolean exists;
            try (Connection c = ds.getConnection()) {
                exists = exists(c, id);
            } catch (SQLException again) {
                e.addSuppressed(again);
                throw e;
            }
            if (!exists) {
                throw e;
            }
            return false;
        }
    }

    /** Whether {@code e} comes from a unique key's violation (SQLSTATE 23505, in PostgreSQL as in H2). */
    private static boolean duplicateKey(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof SQLException s && "23505".equals(s.getSQLState())) {
                return true;
            }
        }
        return false;
    }

    /**
     * In one transaction: if it exists, its subscriber is replaced by this one, who was just allowed to subscribe
     * (false); refused if the session is full; else inserted (true).
     */
    private boolean insert(String id, String sessionId, String uri, Subscriber who, String identity) {
        try {
            return Transactions.inTransaction(ds, c -> {
                OffsetDateTime since = createdAt(c, id);
                if (since != null) {
                    // The application may not update the table: the row is replaced, keeping when it was made.
                    try (PreparedStatement ps = c.prepareStatement("DELETE FROM mcp_subscription WHERE id = ?")) {
                        ps.setString(1, id);
                        ps.executeUpdate();
                    }
                    store(c, id, sessionId, uri, who, identity, since);
                    return false;
                }
                try (PreparedStatement ps = c.prepareStatement("SELECT COUNT(*) FROM mcp_subscription WHERE session_id = ?")) {
                    ps.setString(1, sessionId);
                    try (ResultSet rs = ps.executeQuery()) {
                        rs.next();
                        if (rs.getLong(1) >= maxPerSession) {
                            throw new SubscriptionLimitException(maxPerSession);
                        }
                    }
                }
                store(c, id, sessionId, uri, who, identity, OffsetDateTime.now(ZoneOffset.UTC));
                return true;
            });
        } catch (SQLException e) {
            throw new SubscriptionStoreException("recording a subscription", e);
        }
    }

    private static void store(Connection c, String id, String sessionId, String uri, Subscriber who, String identity,
            OffsetDateTime createdAt) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("INSERT INTO mcp_subscription "
                + "(id, session_id, uri, subject, identity, source_ip, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)")) {
            ps.setString(1, id);
            ps.setString(2, sessionId);
            ps.setString(3, uri);
            ps.setString(4, who.identity().subject());
            ps.setString(5, identity);
            ps.setString(6, who.sourceIp());
            ps.setObject(7, createdAt);
            ps.executeUpdate();
        }
    }

    /** When the subscription was made, or null if there is none. */
    private static OffsetDateTime createdAt(Connection c, String id) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT created_at FROM mcp_subscription WHERE id = ?")) {
            ps.setString(1, id);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? rs.getObject(1, OffsetDateTime.class) : null;
            }
        }
    }

    private static boolean exists(Connection c, String id) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT 1 FROM mcp_subscription WHERE id = ?")) {
            ps.setString(1, id);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next();
            }
        }
    }

    /** Removes the subscription; false if there was none. */
    public boolean remove(String sessionId, String uri) {
        return delete("id", idOf(sessionId, uri)) > 0;
    }

    /** Removes every subscription of a session (it ended). */
    public long removeSession(String sessionId) {
        return delete("session_id", sessionId);
    }

    /** Removes every subscription whose session has ended or is gone; returns how many. */
    public long removeOrphans() {
        try (Connection c = ds.getConnection(); PreparedStatement ps = c.prepareStatement("DELETE FROM mcp_subscription "
                + "WHERE NOT EXISTS (SELECT 1 FROM mcp_session s WHERE s.id = mcp_subscription.session_id AND s.ended_at IS NULL)")) {
            return ps.executeUpdate();
        } catch (SQLException e) {
            throw new SubscriptionStoreException("removing the subscriptions of ended sessions", e);
        }
    }

    private int delete(String column, String value) {
        try (Connection c = ds.getConnection();
                PreparedStatement ps = c.prepareStatement("DELETE FROM mcp_subscription WHERE " + column + " = ?")) {
            ps.setString(1, value);
            return ps.executeUpdate();
        } catch (SQLException e) {
            throw new SubscriptionStoreException("removing subscriptions", e);
        }
    }

    /** The subscriptions of these sessions to these URIs. */
    public List<Stored> find(Collection<String> sessionIds, Collection<String> uris) {
        var out = new ArrayList<Stored>();
        if (sessionIds.isEmpty() || uris.isEmpty()) {
            return out;
        }
        List<String> sessions = List.copyOf(sessionIds);
        List<String> all = List.copyOf(uris);
        for (int s = 0; s < sessions.size(); s += CHUNK) {
            List<String> ss = sessions.subList(s, Math.min(sessions.size(), s + CHUNK));
            for (int u = 0; u < all.size(); u += CHUNK) {
                List<String> us = all.subList(u, Math.min(all.size(), u + CHUNK));
                try (Connection c = ds.getConnection(); PreparedStatement ps = c.prepareStatement(
                        "SELECT session_id, uri, subject, identity, source_ip FROM mcp_subscription WHERE session_id IN "
                                + placeholders(ss.size()) + " AND uri IN " + placeholders(us.size()))) {
                    int k = 1;
                    for (String v : ss) {
                        ps.setString(k++, v);
                    }
                    for (String v : us) {
                        ps.setString(k++, v);
                    }
                    try (ResultSet rs = ps.executeQuery()) {
                        while (rs.next()) {
                            out.add(new Stored(rs.getString(1), rs.getString(2),
                                    new Subscriber(decode(rs.getString(3), rs.getString(4)), rs.getString(5))));
                        }
                    }
                } catch (SQLException e) {
                    throw new SubscriptionStoreException("reading subscriptions", e);
                }
            }
        }
        return out;
    }

    private static String placeholders(int n) {
        return "(" + String.join(", ", Collections.nCopies(n, "?")) + ")";
    }

    private String encode(Identity identity) {
        try {
            return json.writeValueAsString(new IdentityFields(identity.client(), identity.tenant(), identity.roles(),
                    identity.groups(), identity.scopes()));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    private Identity decode(String subject, String stored) {
        try {
            IdentityFields f = json.readValue(stored, IdentityFields.class);
            return new Identity(subject, f.client(), f.tenant(), nonNull(f.roles()), nonNull(f.groups()), nonNull(f.scopes()));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("unreadable subscriber identity", e);
        }
    }

    private static Set<String> nonNull(Set<String> s) {
        return s == null ? Set.of() : s;
    }

    static String idOf(String sessionId, String uri) {
        try {
            var md = MessageDigest.getInstance("SHA-256");
            md.update(sessionId.getBytes(StandardCharsets.UTF_8));
            md.update((byte) 0);
            md.update(uri.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(md.digest());
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
