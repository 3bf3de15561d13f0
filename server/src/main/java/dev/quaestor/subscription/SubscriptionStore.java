package dev.quaestor.subscription;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.quaestor.identity.Identity;
import io.quarkus.narayana.jta.QuarkusTransaction;
import jakarta.enterprise.context.ApplicationScoped;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HexFormat;
import java.util.List;
import java.util.Set;

/**
 * Subscriptions in the shared database. Any replica may record one (the subscribe POST); the
 * replica holding the session's stream finds it when content changes. Each row keeps the
 * subscriber's identity so that every notification is judged again under the policy of the moment.
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
    private final int maxPerSession;

    SubscriptionStore(ObjectMapper json, SubscriptionConfig config) {
        this.json = json;
        this.maxPerSession = config.maxPerSession();
    }

    /** Records the subscription (again: a no-op); throws {@link SubscriptionLimitException} when the session is full. */
    public void add(String sessionId, String uri, Subscriber who) {
        String id = idOf(sessionId, uri);
        String identity = encode(who.identity());
        try {
            insert(id, sessionId, uri, who, identity);
        } catch (SubscriptionLimitException e) {
            throw e;
        } catch (RuntimeException e) {
            // Two identical subscribes at once: the loser's insert collides with the winner's row.
            if (!QuarkusTransaction.requiringNew().call(() -> McpSubscription.findById(id) != null)) {
                throw e;
            }
        }
    }

    private void insert(String id, String sessionId, String uri, Subscriber who, String identity) {
        QuarkusTransaction.requiringNew().run(() -> {
            if (McpSubscription.findById(id) != null) {
                return;
            }
            if (McpSubscription.count("sessionId", sessionId) >= maxPerSession) {
                throw new SubscriptionLimitException(maxPerSession);
            }
            var row = new McpSubscription();
            row.id = id;
            row.sessionId = sessionId;
            row.uri = uri;
            row.subject = who.identity().subject();
            row.identity = identity;
            row.sourceIp = who.sourceIp();
            row.createdAt = Instant.now();
            row.persist();
        });
    }

    /** Removes the subscription; false if there was none. */
    public boolean remove(String sessionId, String uri) {
        String id = idOf(sessionId, uri);
        return QuarkusTransaction.requiringNew().call(() -> McpSubscription.deleteById(id));
    }

    /** Removes every subscription of a session (it ended). */
    public long removeSession(String sessionId) {
        return QuarkusTransaction.requiringNew().call(() -> McpSubscription.delete("sessionId", sessionId));
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
                List<McpSubscription> rows = QuarkusTransaction.requiringNew().call(() ->
                        McpSubscription.<McpSubscription>list("sessionId in ?1 and uri in ?2", ss, us));
                for (McpSubscription r : rows) {
                    out.add(new Stored(r.sessionId, r.uri, new Subscriber(decode(r.subject, r.identity), r.sourceIp)));
                }
            }
        }
        return out;
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
