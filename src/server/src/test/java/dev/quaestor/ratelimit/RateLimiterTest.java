package dev.quaestor.ratelimit;

import dev.quaestor.identity.Identity;
import dev.quaestor.policy.Action;
import dev.quaestor.policy.PolicyLoader;
import dev.quaestor.policy.PolicySet;
import dev.quaestor.uri.CanonicalUri;
import dev.quaestor.uri.UriCanonicalizer;
import io.github.bucket4j.BucketConfiguration;
import io.github.bucket4j.ConsumptionProbe;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Limits from policy files applied by {@link RateLimiter}, on the in-memory store. */
class RateLimiterTest {

    private static final String HEAD = "apiVersion: quaestor/v1\nkind: Policy\n";
    private static final CanonicalUri DOC = UriCanonicalizer.canonicalize("file:///docs/a.md");
    private static final CanonicalUri RAW = UriCanonicalizer.canonicalize("file:///raw/b.bin");

    private static PolicySet policy(String limits) {
        return PolicyLoader.parse(List.of(Map.entry("limits.yaml", HEAD + "limits:\n" + limits)), new ArrayList<>());
    }

    private static String limit(String id, String key, int capacity, String extra) {
        return "  - id: " + id + "\n    key: " + key + "\n    capacity: " + capacity
                + "\n    refill: {tokens: " + capacity + ", period: 1h}\n" + extra;
    }

    private static Identity who(String subject, String client, String tenant) {
        return new Identity(subject, client, tenant, Set.of("r"), Set.of(), Set.of());
    }

    private final SimpleMeterRegistry metrics = new SimpleMeterRegistry();
    private final RateLimiter limiter = new RateLimiter(new LocalBucketStore(), metrics);

    private int admitted(PolicySet p, Identity id, String ip, int attempts) {
        int n = 0;
        for (int i = 0; i < attempts; i++) {
            if (limiter.check(p, id, ip, Action.READ, DOC).allowed()) {
                n++;
            }
        }
        return n;
    }

    @Test
    void eachKeySelectsItsOwnBuckets() {
        var bySubject = policy(limit("s", "subject", 2, ""));
        assertEquals(2, admitted(bySubject, who("alice", "c1", "t1"), "10.0.0.1", 5));
        assertEquals(2, admitted(bySubject, who("bob", "c1", "t1"), "10.0.0.1", 5), "another subject, same client/tenant/ip");

        var byClient = policy(limit("c", "client", 2, ""));
        assertEquals(2, admitted(byClient, who("alice", "c1", "t1"), "10.0.0.1", 3));
        assertEquals(0, admitted(byClient, who("bob", "c1", "t2"), "10.0.0.2", 3), "same client shares the bucket");
        assertEquals(2, admitted(byClient, who("alice", "c2", "t1"), "10.0.0.1", 3));

        var byTenant = policy(limit("t", "tenant", 2, ""));
        assertEquals(2, admitted(byTenant, who("alice", "c1", "acme"), "10.0.0.1", 3));
        assertEquals(0, admitted(byTenant, who("bob", "c2", "acme"), "10.0.0.2", 3), "same tenant shares the bucket");
        assertEquals(2, admitted(byTenant, who("bob", "c2", "globex"), "10.0.0.2", 3));

        var byIp = policy(limit("i", "ip", 2, ""));
        assertEquals(2, admitted(byIp, who("alice", "c1", "t1"), "10.0.0.1", 3));
        assertEquals(0, admitted(byIp, who("bob", "c2", "t2"), "10.0.0.1", 3), "same address shares the bucket");
        assertEquals(2, admitted(byIp, who("bob", "c2", "t2"), "10.0.0.9", 3));

        // One IPv6 host may send from any address of its /64: all of them share the bucket.
        var byIp6 = policy(limit("i6", "ip", 2, ""));
        assertEquals(1, admitted(byIp6, who("carol", "c3", "t3"), "2001:db8:1:2::1", 1));
        assertEquals(1, admitted(byIp6, who("carol", "c3", "t3"), "2001:db8:1:2::2", 3), "another address of the /64");
        assertEquals(2, admitted(byIp6, who("carol", "c3", "t3"), "2001:db8:1:3::1", 3), "another /64");
    }

    @Test
    void everyApplicableLimitMustAdmitAndHeadersDescribeTheTightest() {
        var p = policy(limit("per-user", "subject", 5, "") + limit("per-tenant", "tenant", 3, "")
                + limit("raw-only", "subject", 1, "    resources: [\"file:///raw/**\"]\n"));
        Identity alice = who("alice", "c", "acme");
        RateCheck first = limiter.check(p, alice, "ip", Action.READ, DOC);
        assertTrue(first.allowed());
        assertEquals("per-tenant", first.limitId(), "tenant has fewer tokens left (2) than the user (4)");
        assertEquals(2, first.remaining());
        assertEquals(3, first.capacity());
        assertEquals(3600, first.windowSeconds());

        limiter.check(p, who("bob", "c", "acme"), "ip", Action.READ, DOC);
        limiter.check(p, who("carol", "c", "acme"), "ip", Action.READ, DOC);
        RateCheck rejected = limiter.check(p, alice, "ip", Action.READ, DOC);
        assertFalse(rejected.allowed(), "the tenant's bucket is empty although alice's own is not");
        assertEquals("per-tenant", rejected.limitId());
        assertTrue(rejected.retryAfterSeconds() >= 1 && rejected.retryAfterSeconds() <= 1200, "" + rejected.retryAfterSeconds());

        // The raw-only limit applies to raw URIs only.
        Identity dave = who("dave", "c", "other");
        assertTrue(limiter.check(p, dave, "ip", Action.READ, RAW).allowed());
        RateCheck raw = limiter.check(p, dave, "ip", Action.READ, RAW);
        assertFalse(raw.allowed());
        assertEquals("raw-only", raw.limitId());
        assertTrue(limiter.check(p, dave, "ip", Action.READ, DOC).allowed(), "a document is not under the raw limit");
    }

    @Test
    void aNoisyCallerRejectedByTheirOwnLimitDoesNotDrainTheTenantsBucket() {
        // The tenant limit comes first in the file; the order of checks does not follow the file.
        var p = policy(limit("per-tenant", "tenant", 10, "") + limit("per-user", "subject", 2, ""));
        assertEquals(2, admitted(p, who("alice", "c", "acme"), "ip", 20));
        int colleagues = 0;
        for (String u : List.of("bob", "carol", "dave", "erin")) {
            colleagues += admitted(p, who(u, "c", "acme"), "ip", 5);
        }
        assertEquals(8, colleagues, "the tenant's 10 tokens minus alice's 2 admitted reads remain for her colleagues");
        assertEquals(0, admitted(p, who("frank", "c", "acme"), "ip", 5), "and then the tenant's bucket is empty");
    }

    @Test
    void actionsScopeALimit() {
        var p = policy(limit("reads", "subject", 1, "    actions: [read]\n"));
        Identity alice = who("alice", "c", "t");
        assertTrue(limiter.check(p, alice, "ip", Action.READ, DOC).allowed());
        assertFalse(limiter.check(p, alice, "ip", Action.READ, DOC).allowed());
        assertTrue(limiter.check(p, alice, "ip", Action.LIST, null).allowed(), "list is not limited by a read-only limit");
    }

    @Test
    void shadowLimitsMeasureButNeverReject() {
        var p = policy(limit("enforced", "subject", 10, "") + limit("trial", "subject", 2, "    shadow: true\n"));
        Identity alice = who("alice", "c", "t");
        for (int i = 0; i < 2; i++) {
            RateCheck c = limiter.check(p, alice, "ip", Action.READ, DOC);
            assertTrue(c.allowed());
            assertTrue(c.notes().isEmpty());
            assertEquals("enforced", c.limitId(), "headers never describe a shadow limit");
        }
        RateCheck over = limiter.check(p, alice, "ip", Action.READ, DOC);
        assertTrue(over.allowed(), "a shadow limit does not reject");
        assertEquals(List.of("shadow limit trial would reject"), over.notes());
        assertEquals("shadow limit trial would reject", over.auditDetail());
        assertEquals(1.0, metrics.counter("quaestor.ratelimit.decisions", "limit", "trial", "result", "shadow-rejected").count());
    }

    @Test
    void reloadKeepsBucketsOfUnchangedLimitsAndResetsChangedOnes() {
        Identity alice = who("alice", "c", "t");
        var before = policy(limit("kept", "subject", 2, "") + limit("changed", "tenant", 2, ""));
        assertEquals(2, admitted(before, alice, "ip", 3));

        // Same definition of "kept" in a new set (another file, other rules): its bucket is still empty.
        var after = PolicyLoader.parse(List.of(
                Map.entry("a.yaml", HEAD + "limits:\n" + limit("kept", "subject", 2, "")),
                Map.entry("b.yaml", HEAD + "limits:\n" + limit("changed", "tenant", 50, ""))), new ArrayList<>());
        RateCheck c = limiter.check(after, alice, "ip", Action.READ, DOC);
        assertFalse(c.allowed());
        assertEquals("kept", c.limitId());

        // Without "kept", the changed limit starts from a fresh, larger bucket.
        var only = policy(limit("changed", "tenant", 50, ""));
        assertEquals(49, limiter.check(only, alice, "ip", Action.READ, DOC).remaining(),
                "the changed limit's bucket was fresh at the previous check (one token spent there)" );
    }

    /** A store that cannot answer, as Redis does when it is down. */
    private static final class DeadStore implements BucketStore {
        int calls;

        @Override
        public ConsumptionProbe consume(String key, BucketConfiguration config, long tokens) {
            calls++;
            throw new BucketStoreUnavailableException("down", null);
        }

        @Override
        public String name() {
            return "redis";
        }
    }

    @Test
    void failClosedRefusesAndFailOpenAdmitsWithANote() {
        var dead = new DeadStore();
        var onDead = new RateLimiter(dead, metrics);
        Identity alice = who("alice", "c", "t");

        var closed = policy(limit("strict", "subject", 5, ""));
        var e = assertThrows(RateLimitUnavailableException.class, () -> onDead.check(closed, alice, "ip", Action.READ, DOC));
        assertEquals("strict", e.limitId());

        var explicitClosed = policy(limit("strict", "subject", 5, "    fail: closed\n"));
        assertThrows(RateLimitUnavailableException.class, () -> onDead.check(explicitClosed, alice, "ip", Action.READ, DOC));

        var open = policy(limit("lenient", "subject", 5, "    fail: open\n"));
        RateCheck c = onDead.check(open, alice, "ip", Action.READ, DOC);
        assertTrue(c.allowed());
        assertEquals(List.of("limit lenient admitted unchecked (fail: open, redis unavailable)"), c.notes());

        // Mixed: the open one is noted, the closed one still refuses.
        var mixed = policy(limit("lenient", "subject", 5, "    fail: open\n") + limit("strict", "tenant", 5, ""));
        assertThrows(RateLimitUnavailableException.class, () -> onDead.check(mixed, alice, "ip", Action.READ, DOC));
        assertEquals(2.0, metrics.counter("quaestor.ratelimit.decisions", "limit", "lenient", "result", "unavailable-open").count(),
                "noted on both requests where it applied");
    }

    @Test
    void noApplicableLimitMeansNoStoreCall() {
        var dead = new DeadStore();
        var onDead = new RateLimiter(dead, metrics);
        var p = policy(limit("raw", "subject", 1, "    resources: [\"file:///raw/**\"]\n"));
        assertTrue(onDead.check(p, who("a", "c", "t"), "ip", Action.READ, DOC).allowed());
        assertEquals(0, dead.calls);
    }
}
