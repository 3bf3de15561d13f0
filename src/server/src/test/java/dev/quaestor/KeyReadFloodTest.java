package dev.quaestor;

import dev.quaestor.support.AuditRow;
import dev.quaestor.support.Modern;
import dev.quaestor.support.TestDatabase;
import dev.quaestor.support.TestIssuer;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.sql.Connection;
import java.sql.DriverManager;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.containsString;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Anyone may read the published key, and every read is accounted for, but a flood of reads can neither fill the audit
 * queue that everyone's requests need nor make the log grow without bound: each address has a few reads recorded one
 * by one, within a total; past it reads are counted, one {@code ADMIN} record per address and merge window while the
 * total lasts, then one per window for every address together. A client reading a resource beside the flood is
 * served, even while nothing commits and the flood's records would otherwise have filled the queue.
 */
@QuarkusTest
@TestProfile(KeyReadFloodTest.Tight.class)
class KeyReadFloodTest {

    static final int PER_ADDRESS = 5;
    static final int TOTAL = 20;
    static final int ADDRESSES = 40;
    /** The queue: smaller than the flood, so that a record per read would fill it. */
    static final int QUEUE = 500;
    static final Duration WINDOW = Duration.ofMillis(250);
    static final Duration PERIOD = Duration.ofSeconds(600);

    public static class Tight implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("quaestor.http.forwarded.trusted-proxies", "127.0.0.1/32,::1/128",
                    "quaestor.admin.key-reads.capacity", Integer.toString(PER_ADDRESS),
                    "quaestor.admin.key-reads.total-capacity", Integer.toString(TOTAL),
                    "quaestor.admin.key-reads.period", PERIOD.toSeconds() + "s",
                    "quaestor.audit.attempts.merge-window", WINDOW.toMillis() + "ms",
                    "quaestor.audit.queue-capacity", Integer.toString(QUEUE));
        }
    }

    private static final String URI_READ = "file:///docs/handbook/welcome.md";
    private static final ExecutorService POOL = Executors.newFixedThreadPool(17);

    @TestHTTPResource("/.well-known/quaestor-audit-key")
    URI key;

    @AfterAll
    static void stopPool() {
        POOL.shutdownNow();
    }

    /** {@code n} key reads from {@link #ADDRESSES} addresses, 16 at a time; fails unless every one is answered 200. */
    private void flood(HttpClient http, int n) throws Exception {
        var next = new AtomicInteger();
        var sent = new ArrayList<Future<?>>();
        for (int t = 0; t < 16; t++) {
            sent.add(POOL.submit(() -> {
                for (int i = next.getAndIncrement(); i < n; i = next.getAndIncrement()) {
                    var r = http.send(HttpRequest.newBuilder(key).timeout(Duration.ofSeconds(30))
                            .header("X-Forwarded-For", "198.51.100." + (i % ADDRESSES)).GET().build(),
                            HttpResponse.BodyHandlers.ofString());
                    assertEquals(200, r.statusCode(), r.body());
                    assertTrue(r.body().contains("\"vkey\""), r.body());
                }
                return null;
            }));
        }
        for (Future<?> f : sent) {
            f.get(120, TimeUnit.SECONDS);
        }
    }

    @Test
    void aFloodOfKeyReadsIsAccountedForWithinItsBoundAndTakesNothingFromOthers() throws Exception {
        String bob = TestIssuer.tokenFor("bob");
        Modern.read(bob, 1, URI_READ).statusCode(200);
        HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build(); // as an ingress speaks
        Instant since = Instant.now();
        long t0 = System.nanoTime();
        int first = 2 * QUEUE;
        int second = 2_000;

        // While nothing commits, the flood's records wait in the queue: they must leave room for bob's.
        try (Connection lock = DriverManager.getConnection(TestDatabase.url(), "postgres", "")) {
            lock.setAutoCommit(false);
            lock.createStatement().execute("LOCK TABLE audit_entry IN SHARE ROW EXCLUSIVE MODE");
            Future<String> read;
            try {
                flood(http, first);
                read = POOL.submit(() -> Modern.read(bob, 2, URI_READ).extract().asString());
                Thread.sleep(500); // bob's records are queued, behind the lock
            } finally {
                lock.rollback();
            }
            String served = read.get(30, TimeUnit.SECONDS);
            assertTrue(served.contains("Welcome"), "bob is served once his records commit: " + served);
        }

        // Beside a second flood, bob's reads are all served.
        var stop = new AtomicBoolean();
        var bobs = new AtomicInteger();
        Future<?> reader = POOL.submit(() -> {
            for (int id = 10; !stop.get(); id++) {
                Modern.read(bob, id, URI_READ).statusCode(200).body(containsString("Welcome"));
                bobs.incrementAndGet();
            }
            return null;
        });
        try {
            flood(http, second);
        } finally {
            stop.set(true);
        }
        reader.get(60, TimeUnit.SECONDS);
        assertTrue(bobs.get() > 0, "bob read beside the flood");
        long floodMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);

        // Every read is accounted for, once the last window's count has committed: in a record of its own, or counted.
        int reads = first + second;
        await().atMost(Duration.ofSeconds(20)).until(() -> accounted(since) == reads);
        long accountedMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);
        List<AuditRow> rows = keyRecords(since);
        List<AuditRow> own = rows.stream().filter(r -> r.eventCount == null).toList();
        List<AuditRow> counts = rows.stream().filter(r -> r.eventCount != null).toList();
        // The total refills over its period: a few more records while the test runs.
        long refill = accountedMs * TOTAL / PERIOD.toMillis() + 1;
        assertTrue(own.size() <= TOTAL + refill, own.size() + " reads recorded on their own");
        var perAddress = new HashMap<String, Integer>();
        own.forEach(r -> perAddress.merge(r.sourceIp, 1, Integer::sum));
        perAddress.values().forEach(n -> assertTrue(n <= PER_ADDRESS, "at most its budget per address: " + perAddress));
        List<AuditRow> everyAddress = counts.stream().filter(r -> r.sourceIp == null).toList();
        assertTrue(!everyAddress.isEmpty(), "once the total is spent, every address's reads share one count");
        // The bound: the total (own records, and the counts addresses opened), plus one count per window for all.
        long windows = accountedMs / WINDOW.toMillis() + 1;
        assertTrue(rows.size() <= TOTAL + refill + windows, rows.size() + " records for " + reads + " reads in "
                + accountedMs + " ms: at most " + TOTAL + " + " + refill + " + " + windows);
        for (AuditRow c : counts) {
            assertEquals("ok", c.outcome);
            assertEquals("ALLOW", c.decision);
            assertNull(c.subject);
            assertTrue(!c.firstTime.isAfter(c.lastTime) && !c.lastTime.isAfter(c.time), c.toString());
            assertTrue(c.detail.contains("counted into this record"), c.detail);
        }
        System.out.printf("KeyReadFloodTest: %d key reads in %d ms: %d records (%d on their own, %d counts, %d for every address)%n",
                reads, floodMs, rows.size(), own.size(), counts.size(), everyAddress.size());
    }

    /** Reads whose records, own or counted, the database refuses for a while are counted again until one is stored. */
    @Test
    void readsWhoseRecordsAreNotStoredAreCountedUntilTheyAre() throws Exception {
        HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build(); // as an ingress speaks
        Instant since = Instant.now();
        int reads = 60;
        try (Connection c = DriverManager.getConnection(TestDatabase.url(), "postgres", ""); var s = c.createStatement()) {
            s.execute("CREATE OR REPLACE FUNCTION test_refuse_key_reads() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN "
                    + "IF NEW.method = 'audit/key' THEN RAISE EXCEPTION 'refused by the test'; END IF; RETURN NEW; END $$");
            s.execute("CREATE TRIGGER test_refuse_key_reads BEFORE INSERT ON audit_entry FOR EACH ROW EXECUTE FUNCTION test_refuse_key_reads()");
            try {
                for (int i = 0; i < reads; i++) {
                    var r = http.send(HttpRequest.newBuilder(key).header("X-Forwarded-For", "203.0.113." + (i % 3)).GET().build(),
                            HttpResponse.BodyHandlers.ofString());
                    assertEquals(200, r.statusCode(), r.body());
                }
                Thread.sleep(4 * WINDOW.toMillis()); // counts closed and refused, window after window
                assertEquals(0, accounted(since), "nothing stored while the database refuses them");
            } finally {
                s.execute("DROP TRIGGER IF EXISTS test_refuse_key_reads ON audit_entry");
            }
        }
        await().atMost(Duration.ofSeconds(20)).until(() -> accounted(since) == reads);
    }

    private static List<AuditRow> keyRecords(Instant since) {
        return AuditRow.list("kind = 'ADMIN' and method = 'audit/key' and event_time >= ? order by id", since);
    }

    private static long accounted(Instant since) {
        return keyRecords(since).stream().mapToLong(r -> r.eventCount == null ? 1 : r.eventCount).sum();
    }
}
