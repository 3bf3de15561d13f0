package dev.quaestor;

import dev.quaestor.support.AuditRow;
import dev.quaestor.support.Rpc;
import dev.quaestor.support.TestIssuer;
import dev.quaestor.support.TestPolicies;
import dev.quaestor.support.Wait;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Policy files edited under the running server: picked up, refused when broken, recovered, with no failed request. */
@QuarkusTest
class PolicyReloadTest {

    private static final Path FILE = TestPolicies.DIR.resolve("reload-test.yaml");
    private static final String READ_RELOADABLE = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"resources/read\",\"params\":{\"uri\":\"test-data://reloadable\"}}";
    private static final String GRANT = """
            apiVersion: quaestor/v1
            kind: Policy
            rules:
              - id: bob-may-read-reloadable
                effect: allow
                actions: [read]
                resources: ["test-data://reloadable"]
                subjects: {subjects: [bob]}
            """;

    @AfterEach
    void cleanUp() throws Exception {
        Files.deleteIfExists(FILE);
        Wait.until("the test file's removal to be picked up", Duration.ofSeconds(5), Duration.ofMillis(100),
                () -> "ok".equals(policyHealth().get("state"))
                && !String.valueOf(policyHealth().get("files")).contains("reload-test"));
    }

    /** The administrators' view of the active set: {@code /admin/policy}, where the details of a refusal are. */
    private static Map<String, Object> policyHealth() {
        JsonPath status = given().header("Authorization", "Bearer " + ADMIN).get("/admin/policy").then().statusCode(200)
                .extract().jsonPath();
        Map<String, Object> out = new java.util.HashMap<>(status.getMap("$"));
        out.put("files", String.join(",", status.getList("files", String.class)));
        out.put("error", String.join("; ", status.getList("errors", String.class) == null ? List.of() : status.getList("errors", String.class)));
        return out;
    }

    private static final String ADMIN = TestIssuer.tokenFor("admin");

    private static int bobReads(String token, String session) {
        Object code = Rpc.call(token, session, READ_RELOADABLE).extract().path("error.code");
        return code == null ? 0 : (Integer) code;
    }

    /**
     * Readiness is for anyone who can reach the port (the kubelet, a load balancer, an attacker): it says UP or DOWN
     * and nothing about the policy set, not even while a refused file's errors wait to be fixed.
     */
    private static void readinessSaysOnlyUp(String revision) {
        for (String path : List.of("/q/health/ready", "/q/health", "/q/health/live", "/q/health/started")) {
            String body = given().get(path).then().statusCode(200).extract().asString();
            for (String secret : List.of("reload-test", "efect", revision, "degraded", "rejectedRevision", ".yaml", "<default>", "\"data\"")) {
                assertFalse(body.contains(secret), path + " shows '" + secret + "': " + body);
            }
        }
        JsonPath ready = given().get("/q/health/ready").then().extract().jsonPath();
        assertEquals("UP", ready.getString("status"));
        assertEquals("UP", ready.getString("checks.find { it.name == 'policy' }.status"));
        Object data = ready.get("checks.find { it.name == 'policy' }.data");
        assertEquals(null, data, "no data for anyone");
        assertEquals("UP", ready.getString("checks.find { it.name == 'database' }.status"));
    }

    @Test
    void editBreakAndFixWhileAClientReadsWithTheDetailsForAdministratorsOnly() throws Exception {
        String bob = TestIssuer.tokenFor("bob");
        String bobSession = Rpc.initialize(bob, "2025-06-18");
        assertEquals(-32003, bobReads(bob, bobSession));
        String before = (String) policyHealth().get("revision");

        // A client reads in a loop the whole time; none of its requests may fail.
        String alice = TestIssuer.tokenFor("carol");
        String aliceSession = Rpc.initialize(alice, "2025-06-18");
        var stop = new AtomicBoolean();
        var reads = new AtomicInteger();
        var failures = new AtomicInteger();
        Thread reader = new Thread(() -> {
            String read = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"resources/read\",\"params\":{\"uri\":\"file:///docs/handbook/welcome.md\"}}";
            while (!stop.get()) {
                var r = Rpc.call(alice, aliceSession, read).extract();
                if (r.statusCode() != 200 || r.path("error") != null) {
                    failures.incrementAndGet();
                }
                reads.incrementAndGet();
                try {
                    Thread.sleep(10);
                } catch (InterruptedException e) {
                    return;
                }
            }
        });
        reader.start();
        try {
            // 1. An edit takes effect within 5 s.
            Files.writeString(FILE, GRANT);
            Wait.until("the grant to take effect", Duration.ofSeconds(5), Duration.ofMillis(100),
                    () -> bobReads(bob, bobSession) == 0);
            String granted = (String) policyHealth().get("revision");
            assertTrue(!granted.equals(before));

            // 2. A broken file is refused: the old decision holds, and /admin/policy says why.
            Files.writeString(FILE, GRANT.replace("effect: allow", "efect: allow"));
            Wait.until("the refusal to be reported", Duration.ofSeconds(5), Duration.ofMillis(100),
                    () -> "degraded".equals(policyHealth().get("state")));
            Map<String, Object> degraded = policyHealth();
            assertTrue(String.valueOf(degraded.get("error")).contains("reload-test.yaml:5: unknown key 'efect'"), degraded.toString());
            assertEquals(granted, degraded.get("revision"));
            assertEquals(0, bobReads(bob, bobSession), "the last good set stays active");
            readinessSaysOnlyUp(granted);

            // 3. Fixing the file recovers.
            Files.writeString(FILE, GRANT.replace("subjects: [bob]", "subjects: [nobody]"));
            Wait.until("recovery", Duration.ofSeconds(5), Duration.ofMillis(100),
                    () -> "ok".equals(policyHealth().get("state")) && bobReads(bob, bobSession) == -32003);
        } finally {
            stop.set(true);
            reader.join();
        }
        assertTrue(reads.get() > 10, "the reader made " + reads.get() + " requests");
        assertEquals(0, failures.get(), failures.get() + " of " + reads.get() + " reads failed during the swaps");

        List<AuditRow> changes = AuditRow.list("kind = ? and event_time > ? order by id", "POLICY",
                java.time.Instant.now().minusSeconds(60));
        assertTrue(changes.stream().anyMatch(a -> "activated".equals(a.outcome)), "activations are audited");
        AuditRow refused = changes.stream().filter(a -> "refused".equals(a.outcome)).findFirst().orElseThrow();
        assertTrue(refused.detail.contains("reload-test.yaml:5"), refused.detail);
        assertEquals(64, refused.policyRevision.length());
    }
}
