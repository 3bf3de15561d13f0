package dev.quaestor.identity;

import io.quarkus.oidc.runtime.TenantConfigBean;
import io.quarkus.oidc.runtime.TenantConfigContext;
import io.quarkus.scheduler.Scheduled;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.util.HashSet;
import java.util.Set;
import org.jboss.logging.Logger;

/**
 * Which of the issuer's signing keys it has withdrawn. quarkus-oidc loads the issuer's key set once and loads it again
 * only when a token names a key it does not know, so a key the issuer has taken out of its set (a compromised one,
 * say) would still be trusted until the server restarts. Every {@code quaestor.identity.key-check-interval} this asks
 * the issuer for its key set; a key id seen in it before and missing now is withdrawn, and {@link WithdrawnKeys} refuses
 * the tokens it signed, cached ones included. A key published again counts again. A key never seen is not withdrawn:
 * a newly rotated key is trusted as soon as quarkus-oidc has loaded it. When the issuer cannot be asked, what it said
 * last stands.
 */
@ApplicationScoped
public class PublishedKeys {

    private static final Logger LOG = Logger.getLogger(PublishedKeys.class);
    private static final Duration ASK_BOUND = Duration.ofSeconds(10);
    /** Key ids remembered as seen; an issuer publishes a handful, so more than this is not a key set. */
    private static final int MOST_KEYS = 1_000;

    private final TenantConfigBean tenants;
    private final IssuerConnection issuer;
    private final Set<String> seen = new HashSet<>();
    private volatile Set<String> withdrawn = Set.of();
    /** The key ids the issuer published when last asked; null until it has been. */
    private volatile Set<String> published;

    PublishedKeys(TenantConfigBean tenants, IssuerConnection issuer) {
        this.tenants = tenants;
        this.issuer = issuer;
    }

    /** Whether the issuer published this key id when last asked (true if it has not been asked yet). */
    public boolean publishedLast(String keyId) {
        Set<String> last = published;
        return last == null || last.contains(keyId);
    }

    /** Whether the issuer has withdrawn the key of this id (null: a token naming no key, left to quarkus-oidc). */
    public boolean withdrawn(String keyId) {
        return keyId != null && withdrawn.contains(keyId);
    }

    @Scheduled(every = "${quaestor.identity.key-check-interval:60s}", concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    void check() {
        TenantConfigContext tenant = tenants.getDefaultTenant();
        if (tenant == null || !tenant.oidcConfig().tenantEnabled() || !issuer.ready() || tenant.provider() == null) {
            return;
        }
        String uri = tenant.provider().getMetadata().getJsonWebKeySetUri();
        if (uri == null) {
            return;
        }
        Set<String> published;
        try {
            var answer = tenant.getOidcProviderClient().getWebClient().getAbs(uri).send().await().atMost(ASK_BOUND);
            if (answer.statusCode() != 200) {
                LOG.warnf("the issuer's key set (%s) answered %d; the keys it published last still count", uri, answer.statusCode());
                return;
            }
            published = keyIds(answer.bodyAsJsonObject());
        } catch (RuntimeException e) {
            LOG.warnf("the issuer's key set (%s) could not be read (%s); the keys it published last still count", uri, e.toString());
            return;
        }
        update(published);
    }

    synchronized void update(Set<String> published) {
        if (seen.size() + published.size() <= MOST_KEYS) {
            seen.addAll(published);
        }
        var now = new HashSet<>(seen);
        now.removeAll(published);
        if (!now.equals(withdrawn)) {
            if (now.isEmpty()) {
                LOG.infof("the issuer publishes again the signing key(s) %s: tokens they signed count again", withdrawn);
            } else {
                LOG.warnf("the issuer has withdrawn the signing key(s) %s: tokens they signed are refused", now);
            }
        }
        withdrawn = Set.copyOf(now);
        this.published = Set.copyOf(published);
    }

    private static Set<String> keyIds(JsonObject set) {
        var ids = new HashSet<String>();
        JsonArray keys = set == null ? null : set.getJsonArray("keys");
        if (keys == null) {
            throw new IllegalArgumentException("not a JSON Web Key Set (no \"keys\")");
        }
        for (Object k : keys) {
            if (k instanceof JsonObject key && key.getValue("kid") instanceof String kid) {
                ids.add(kid);
            }
        }
        return ids;
    }
}
