package dev.quaestor;

import dev.quaestor.support.AuditRow;
import dev.quaestor.support.ExtraPolicies;
import dev.quaestor.support.Modern;
import dev.quaestor.support.TestIssuer;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Behind a trusted proxy (here the tests' own address, as an ingress would be): the source address on record, in
 * {@code sourceCidrs} and in the refusal throttle is the right-most hop of {@code X-Forwarded-For} that is not a
 * trusted proxy, never what a client wrote to its left. One sender's garbage locks out neither a fresh token from the
 * issuer nor a new client's 401 challenge behind the same address, and refused authentications write at most their
 * budget of records, per address and in total, however many arrive at once.
 */
@QuarkusTest
@TestProfile(ForwardedClientsTest.BehindAnIngress.class)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class) // the total budget is shared: the one-address flood comes first
class ForwardedClientsTest {

    static final int PER_ADDRESS = 3;
    static final int TOTAL = 12;

    public static class BehindAnIngress implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            // Addresses stored as sent, so that the test can find them (the tests' default stores them hashed).
            return Map.of("quaestor.audit.hashed-fields", "", "quaestor.http.forwarded.trusted-proxies", "127.0.0.1/32,::1/128",
                    "quaestor.identity.unauthenticated-limit.capacity", Integer.toString(PER_ADDRESS),
                    "quaestor.identity.unauthenticated-limit.total-capacity", Integer.toString(TOTAL),
                    "quaestor.identity.unauthenticated-limit.period", "600s",
                    "quaestor.policies.path", ExtraPolicies.directory("forwarded-clients-policies", "office.yaml", """
                            apiVersion: quaestor/v1
                            kind: Policy
                            metadata:
                              name: office-network
                              description: Office staff read the trial summary from the office network only
                            rules:
                              - id: office-staff-from-the-office
                                effect: allow
                                actions: [read]
                                resources: ["file:///docs/trials/onco-734/summary.md"]
                                subjects: {roles: [office-staff]}
                                when: {sourceCidrs: [10.20.0.0/16]}
                            """));
        }
    }

    private static final String SUMMARY = "file:///docs/trials/onco-734/summary.md";
    private static final ExecutorService POOL = Executors.newFixedThreadPool(64);

    @TestHTTPResource("/mcp")
    URI mcp;

    @AfterAll
    static void stopPool() {
        POOL.shutdownNow();
    }

    private static String staff() {
        return TestIssuer.sign(TestIssuer.claims("dana").claim("realm_access", Map.of("roles", List.of("office-staff"))));
    }

    @Test
    @Order(1)
    void theAddressOnRecordAndInSourceCidrsIsTheRightMostHopNotWhatTheClientWrote() {
        String dana = staff();
        // The client wrote an office address; the ingress appended the one it saw.
        String denied = Modern.as(dana, "resources/read").header("Mcp-Name", SUMMARY)
                .header("X-Forwarded-For", "10.20.0.5, 198.51.100.4")
                .body(Modern.body(1, "resources/read", "\"uri\":\"" + SUMMARY + "\"")).post("/mcp").then()
                .extract().header("X-Request-Id");
        AuditRow refused = AuditRow.first("request_id = ? and kind = 'DECISION'", denied);
        assertEquals("DENY", refused.decision);
        assertEquals("198.51.100.4", refused.sourceIp, "the hop the trusted proxy wrote, not the client's");

        // From the office, as the ingress saw it.
        String served = Modern.as(dana, "resources/read").header("Mcp-Name", SUMMARY).header("X-Forwarded-For", "10.20.0.5")
                .body(Modern.body(2, "resources/read", "\"uri\":\"" + SUMMARY + "\"")).post("/mcp").then()
                .statusCode(200).extract().header("X-Request-Id");
        AuditRow allowed = AuditRow.first("request_id = ? and kind = 'DECISION'", served);
        assertEquals("ALLOW", allowed.decision);
        assertEquals("10.20.0.5", allowed.sourceIp);
    }

    @Test
    @Order(2)
    void oneSendersGarbageLocksOutNeitherAFreshTokenFromTheIssuerNorANewClientsChallenge() {
        String shared = "198.51.100.20";
        int status = 0;
        for (int i = 0; i <= PER_ADDRESS && status != 429; i++) {
            status = Modern.bare("garbage-" + i).header("X-Forwarded-For", shared)
                    .body(Modern.body(1, "server/discover", null)).post("/mcp").then().extract().statusCode();
        }
        assertEquals(429, status, "the garbage's address is throttled");
        String foreignShape = TestIssuer.signWithForeignKey(TestIssuer.claims("mallory").issuer("https://elsewhere.example"));
        Modern.bare(foreignShape).header("X-Forwarded-For", shared).body(Modern.body(2, "server/discover", null))
                .post("/mcp").then().statusCode(429);

        // A token new to this server, from the issuer, behind the same address: checked and served.
        String fresh = TestIssuer.sign(TestIssuer.claims("alice"));
        Modern.as(fresh, "server/discover").header("X-Forwarded-For", shared).body(Modern.body(4, "server/discover", null))
                .post("/mcp").then().statusCode(200);
        // A new client without a token, behind the same address: its challenge, to discover the authorization server.
        given().contentType("application/json").accept("application/json, text/event-stream")
                .header("MCP-Protocol-Version", Modern.VERSION).header("Mcp-Method", "server/discover")
                .header("X-Forwarded-For", shared).body(Modern.body(5, "server/discover", null)).post("/mcp").then().statusCode(401)
                .header("WWW-Authenticate", containsString("resource_metadata="));
    }

    @Test
    @Order(3)
    void concurrentRefusalsFromOneAddressWriteNoMoreThanItsBudgetOnTheirOwn() throws Exception {
        String address = "198.51.100.30";
        Instant since = Instant.now();
        long t0 = System.nanoTime();
        List<Integer> statuses = send(List.of(address), 64);
        double seconds = (System.nanoTime() - t0) / 1e9;
        assertTrue(statuses.stream().allMatch(s -> s == 401 || s == 429), statuses.toString());

        List<AuditRow> rows = AuditRow.list("source_ip = ? and event_time >= ?", address, since);
        long alone = rows.stream().filter(r -> r.kind.equals("AUTHENTICATION")).count();
        List<AuditRow> summaries = rows.stream().filter(r -> r.kind.equals("ATTEMPT_SUMMARY")).toList();
        System.out.printf("ForwardedClientsTest: 64 concurrent refusals from one address in %.2f s: %d records on their own,"
                + " %d summaries%n", seconds, alone, summaries.size());
        assertTrue(alone <= PER_ADDRESS, alone + " records on their own for a budget of " + PER_ADDRESS);
        // Each reason (invalid-token, throttled) at most one summary per window.
        assertTrue(summaries.size() <= 2 * (Math.ceil(seconds) + 1), summaries.size() + " summaries in " + seconds + " s");
        long shared = AuditRow.list("kind = 'ATTEMPT_SUMMARY' and source_ip is null and event_time >= ?", since).stream()
                .mapToLong(r -> r.eventCount).sum();
        assertEquals(64, alone + summaries.stream().mapToLong(r -> r.eventCount).sum() + shared,
                "every refusal is counted, once");
    }

    @Test
    @Order(4)
    void refusalsFromManyAddressesWriteNoMoreThanTheTotalBudget() throws Exception {
        var addresses = new ArrayList<String>();
        for (int i = 1; i <= 30; i++) {
            addresses.add("198.51.101." + i);
        }
        Instant since = Instant.now();
        long t0 = System.nanoTime();
        List<Integer> statuses = send(addresses, 3 * addresses.size());
        double seconds = (System.nanoTime() - t0) / 1e9;
        assertTrue(statuses.stream().allMatch(s -> s == 401 || s == 429), statuses.toString());

        // What the flood wrote: records of single addresses, and the summaries every address shares once the total is spent.
        List<AuditRow> rows = AuditRow.list("(source_ip like '198.51.101.%' or (kind = 'ATTEMPT_SUMMARY' and source_ip is null))"
                + " and event_time >= ?", since);
        long alone = rows.stream().filter(r -> r.kind.equals("AUTHENTICATION")).count();
        System.out.printf("ForwardedClientsTest: %d refusals from %d addresses in %.2f s: %d records, %d on their own%n",
                statuses.size(), addresses.size(), seconds, rows.size(), alone);
        assertTrue(alone <= TOTAL, alone + " records on their own for a total budget of " + TOTAL);
        // The total bound: the budget, plus one shared summary per reason (invalid-token, throttled) and window.
        assertTrue(rows.size() <= TOTAL + 2 * (Math.ceil(seconds) + 1), rows.size() + " records in " + seconds + " s");
        long counted = rows.stream().mapToLong(r -> r.kind.equals("ATTEMPT_SUMMARY") ? r.eventCount : 1).sum();
        assertEquals(statuses.size(), counted, "every refusal is counted, once");
    }

    /**
     * A client that has its connection upgraded to h2c through a proxy that passes {@code Upgrade} on (ingress-nginx
     * does) speaks to the server itself from then on, through the trusted proxy's connection: its forwarding header is
     * its own. Such a request has no source address: an office address it writes opens no {@code sourceCidrs} rule, and
     * none is on record. Before, the office rule served it, and its record gave the office address.
     */
    @Test
    @Order(5)
    void overH2cFromATrustedProxyTheForwardingHeaderIsNotBelieved() throws Exception {
        String dana = staff();
        HttpClient h2c = HttpClient.newBuilder().version(HttpClient.Version.HTTP_2).build();
        for (int id = 1; id <= 2; id++) { // the upgrade's own request, then one on the upgraded connection
            HttpResponse<String> r = h2c.send(HttpRequest.newBuilder(mcp).header("Authorization", "Bearer " + dana)
                    .header("Content-Type", "application/json").header("Accept", "application/json, text/event-stream")
                    .header("MCP-Protocol-Version", Modern.VERSION).header("Mcp-Method", "resources/read")
                    .header("Mcp-Name", SUMMARY).header("X-Forwarded-For", "10.20.0.5")
                    .POST(HttpRequest.BodyPublishers.ofString(Modern.body(id, "resources/read", "\"uri\":\"" + SUMMARY + "\"")))
                    .build(), HttpResponse.BodyHandlers.ofString());
            assertEquals(HttpClient.Version.HTTP_2, r.version(), "over h2c");
            assertTrue(r.body().contains("-32003"), r.body());
            String requestId = r.headers().firstValue("X-Request-Id").orElseThrow();
            AuditRow decision = AuditRow.first("request_id = ? and kind = 'DECISION'", requestId);
            assertEquals("DENY", decision.decision);
            assertEquals(null, decision.sourceIp, "no address on record for a header no trusted proxy wrote");
        }
    }

    /** {@code n} requests with refused tokens at once, spread over {@code addresses}; their statuses. */
    private List<Integer> send(List<String> addresses, int n) throws Exception {
        // HTTP/1.1, as an ingress speaks to the server: over h2c a trusted proxy's header is not believed (below).
        HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(Duration.ofSeconds(10)).build();
        var sent = new ArrayList<Future<Integer>>();
        for (int i = 0; i < n; i++) {
            String address = addresses.get(i % addresses.size());
            String token = "not-a-token-" + i;
            sent.add(POOL.submit(() -> http.send(HttpRequest.newBuilder(mcp).timeout(Duration.ofSeconds(30))
                    .header("Authorization", "Bearer " + token).header("X-Forwarded-For", address)
                    .header("Content-Type", "application/json").header("Accept", "application/json, text/event-stream")
                    .POST(HttpRequest.BodyPublishers.ofString(Modern.body(1, "server/discover", null))).build(),
                    HttpResponse.BodyHandlers.discarding()).statusCode()));
        }
        var statuses = new ArrayList<Integer>();
        for (Future<Integer> f : sent) {
            statuses.add(f.get(60, TimeUnit.SECONDS));
        }
        return statuses;
    }
}
