package dev.quaestor;

import dev.quaestor.support.AuditRow;
import dev.quaestor.support.Modern;
import dev.quaestor.support.Rpc;
import dev.quaestor.support.TestIssuer;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import io.restassured.response.ExtractableResponse;
import io.restassured.response.Response;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.emptyOrNullString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasKey;
import static org.hamcrest.Matchers.not;
import static org.hamcrest.Matchers.notNullValue;
import static org.hamcrest.Matchers.nullValue;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * MCP 2026-07-28 over raw HTTP: stateless requests beside the 2025 sessions on the same endpoint, with
 * their envelope, their error codes and statuses, their result fields, and their audit records.
 */
@QuarkusTest
class StatelessProtocolTest {

    private static final List<String> SUPPORTED = List.of("2026-07-28", "2025-11-25", "2025-06-18", "2025-03-26");
    private final String alice = TestIssuer.tokenFor("alice");
    private final String bob = TestIssuer.tokenFor("bob");

    private static List<AuditRow> records(ExtractableResponse<Response> r) {
        String rid = r.header("X-Request-Id");
        assertNotNull(rid, "every answer names its request");
        return AuditRow.list("request_id = ? ORDER BY seq", rid);
    }

    @Test
    void discoverNeedsNoSessionAndIsPublic() {
        var r = Modern.call(bob, "server-discover-probe-1", "server/discover", null).statusCode(200)
                .header("Mcp-Session-Id", nullValue())
                .body("id", equalTo("server-discover-probe-1"))
                .body("result.resultType", equalTo("complete"))
                .body("result.supportedVersions", equalTo(SUPPORTED))
                .body("result.capabilities.resources.subscribe", equalTo(true))
                .body("result.capabilities.resources.listChanged", equalTo(true))
                .body("result.capabilities.completions", equalTo(Map.of()))
                .body("result.capabilities", not(hasKey("tools")))
                .body("result.capabilities", not(hasKey("logging")))
                .body("result.ttlMs", equalTo(3_600_000))
                .body("result.cacheScope", equalTo("public"))
                .body("result._meta.'io.modelcontextprotocol/serverInfo'.name", equalTo("quaestor"))
                .body("result._meta.'io.modelcontextprotocol/serverInfo'.version", notNullValue())
                .body("result", not(hasKey("serverInfo")))
                .extract();
        assertTrue(records(r).isEmpty(), "discovery discloses no content and is not recorded");
    }

    @Test
    void theEnvelopeIsRequired() {
        // No _meta at all, or without one of its two required keys: 400 with -32602, the id echoed, audited.
        String noMeta = "{\"jsonrpc\":\"2.0\",\"id\":101,\"method\":\"server/discover\",\"params\":{}}";
        var r = Modern.as(bob, "server/discover").body(noMeta).post("/mcp").then().statusCode(400)
                .body("id", equalTo(101)).body("error.code", equalTo(-32602))
                .body("error.message", containsString("_meta")).extract();
        var rows = records(r);
        assertEquals(1, rows.size(), rows.toString());
        assertEquals("DECISION", rows.get(0).kind);
        assertEquals("DENY", rows.get(0).decision);
        assertEquals("invalid-envelope", rows.get(0).outcome);
        assertEquals(-32602, rows.get(0).errorCode);

        String noVersion = "{\"jsonrpc\":\"2.0\",\"id\":102,\"method\":\"server/discover\",\"params\":{\"_meta\":"
                + "{\"io.modelcontextprotocol/clientCapabilities\":{}}}}";
        Modern.as(bob, "server/discover").body(noVersion).post("/mcp").then().statusCode(400)
                .body("id", equalTo(102)).body("error.code", equalTo(-32602))
                .body("error.message", containsString("protocolVersion"));
        String noCapabilities = "{\"jsonrpc\":\"2.0\",\"id\":104,\"method\":\"server/discover\",\"params\":{\"_meta\":"
                + "{\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\"}}}";
        Modern.as(bob, "server/discover").body(noCapabilities).post("/mcp").then().statusCode(400)
                .body("id", equalTo(104)).body("error.code", equalTo(-32602))
                .body("error.message", containsString("clientCapabilities"));
        // clientInfo is optional.
        String noClientInfo = "{\"jsonrpc\":\"2.0\",\"id\":105,\"method\":\"server/discover\",\"params\":{\"_meta\":"
                + "{\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\",\"io.modelcontextprotocol/clientCapabilities\":{}}}}";
        Modern.as(bob, "server/discover").body(noClientInfo).post("/mcp").then().statusCode(200)
                .body("result.resultType", equalTo("complete"));
    }

    @Test
    void unsupportedVersionsAndMismatchedVersionHeaders() {
        String v999 = Modern.body(301, "server/discover", null).replace("\"2026-07-28\"", "\"v999.0.0\"");
        var r = Modern.bare(bob).header("MCP-Protocol-Version", "v999.0.0").header("Mcp-Method", "server/discover")
                .body(v999).post("/mcp").then().statusCode(400)
                .body("id", equalTo(301)).body("error.code", equalTo(-32022))
                .body("error.data.supported", equalTo(SUPPORTED)).body("error.data.requested", equalTo("v999.0.0"))
                .extract();
        assertEquals("unsupported-version", records(r).get(0).outcome);
        // The header differs from the body: HeaderMismatch, whichever of them is right.
        String v999With2026Header = v999.replace("\"id\":301", "\"id\":302");
        Modern.as(bob, "server/discover").body(v999With2026Header).post("/mcp").then().statusCode(400)
                .body("id", equalTo(302)).body("error.code", equalTo(-32020));
        var mismatch = Modern.bare(bob).header("MCP-Protocol-Version", "2025-11-25").header("Mcp-Method", "server/discover")
                .body(Modern.body(303, "server/discover", null)).post("/mcp").then().statusCode(400)
                .body("error.code", equalTo(-32020)).extract();
        AuditRow row = records(mismatch).get(0);
        assertEquals("header-mismatch", row.outcome);
        assertEquals("2026-07-28", row.protocol);
        // No header at all: the revision requires it.
        Modern.bare(bob).header("Mcp-Method", "server/discover").body(Modern.body(304, "server/discover", null))
                .post("/mcp").then().statusCode(400).body("error.code", equalTo(-32020));
    }

    @Test
    void methodsThisServerDoesNotServeAre404() {
        for (String method : new String[] {"tools/list", "prompts/list", "tools/call", "initialize", "ping", "logging/setLevel",
                "resources/subscribe", "resources/unsubscribe", "unknown/method"}) {
            Modern.call(bob, 500, method, null).statusCode(404).body("id", equalTo(500))
                    .body("error.code", equalTo(-32601));
        }
    }

    @Test
    void listingPagesAreCompletePrivateAndFollowTheShortestMountTtl() {
        var uris = new ArrayList<String>();
        String cursor = null;
        int pages = 0;
        do {
            String params = cursor == null ? "" : "\"cursor\":\"" + cursor + "\"";
            var page = Modern.call(bob, 10 + pages, "resources/list", params).statusCode(200)
                    .body("result.resultType", equalTo("complete"))
                    .body("result.cacheScope", equalTo("private"))
                    // The docs mount keeps the default ttl-ms, 0; a page spans every mount.
                    .body("result.ttlMs", equalTo(0))
                    .body("result._meta.'io.modelcontextprotocol/serverInfo'.name", equalTo("quaestor"))
                    .extract().jsonPath();
            assertTrue(page.getList("result.resources").size() <= 3);
            uris.addAll(page.getList("result.resources.uri"));
            cursor = page.getString("result.nextCursor");
            assertTrue(++pages < 50);
        } while (cursor != null);
        assertTrue(pages > 1, "paged: " + pages);
        assertTrue(uris.contains("test://static-text") && uris.contains("file:///docs/home/bob/notes.md"), uris.toString());
        assertFalse(uris.contains("file:///docs/home/alice/notes.md"), "entries bob may not list are left out");
        // Annotations travel from the provider.
        var all = new ArrayList<Map<String, Object>>();
        cursor = null;
        do {
            String params = cursor == null ? "" : "\"cursor\":\"" + cursor + "\"";
            JsonPath page = Modern.call(bob, 99, "resources/list", params).statusCode(200).extract().jsonPath();
            all.addAll(page.getList("result.resources"));
            cursor = page.getString("result.nextCursor");
        } while (cursor != null);
        @SuppressWarnings("unchecked")
        var annotations = (Map<String, Object>) all.stream().filter(r -> r.get("uri").equals("test://static-text")).findFirst()
                .orElseThrow().get("annotations");
        assertEquals(List.of("user", "assistant"), annotations.get("audience"));
        assertEquals(0.8, ((Number) annotations.get("priority")).doubleValue(), 1e-6);
    }

    @Test
    void readsOfTextBlobAndTemplate() {
        var text = Modern.read(bob, 20, "test://static-text").statusCode(200)
                .body("result.resultType", equalTo("complete"))
                .body("result.contents[0].uri", equalTo("test://static-text"))
                .body("result.contents[0].mimeType", equalTo("text/plain"))
                .body("result.contents[0].text", containsString("static text"))
                .body("result.cacheScope", equalTo("private"))
                .body("result.ttlMs", equalTo(0))
                .body("result._meta.'io.modelcontextprotocol/serverInfo'.name", equalTo("quaestor"))
                .extract();
        Modern.read(bob, 21, "test://static-binary").statusCode(200)
                .body("result.contents[0].mimeType", equalTo("image/png"))
                .body("result.contents[0].blob", startsWithPng());
        Modern.read(bob, 22, "test://template/123/data").statusCode(200)
                .body("result.contents[0].text", containsString("123"));
        var tmpl = Modern.call(bob, 23, "resources/templates/list", null).statusCode(200)
                .body("result.resultType", equalTo("complete"))
                .body("result.cacheScope", equalTo("private"))
                .extract().jsonPath();
        @SuppressWarnings("unchecked")
        var fixture = (Map<String, Object>) tmpl.getList("result.resourceTemplates", Map.class).stream()
                .filter(t -> "test://template/{id}/data".equals(t.get("uriTemplate"))).findFirst().orElseThrow();
        @SuppressWarnings("unchecked")
        var annotations = (Map<String, Object>) fixture.get("annotations");
        assertEquals(List.of("assistant"), annotations.get("audience"));

        // The audit records name the revision, the client and, without a session, the token's jti.
        var rows = records(text);
        assertEquals(List.of("DECISION", "OUTCOME"), rows.stream().map(x -> x.kind).toList());
        for (AuditRow row : rows) {
            assertEquals("2026-07-28", row.protocol);
            assertEquals("rest-assured/9.9", row.clientInfo);
            assertNull(row.sessionId);
            assertNotNull(row.correlation);
            assertTrue(row.correlation.startsWith("jti:"), row.correlation);
        }
        assertEquals("private", rows.get(1).cacheScope, "the OUTCOME records the scope the response declared");
        assertEquals("ok", rows.get(1).outcome);
    }

    private static org.hamcrest.Matcher<String> startsWithPng() {
        return org.hamcrest.Matchers.startsWith("iVBORw0KGgo");
    }

    @Test
    void notFoundIsInvalidParamsWithTheUriAndDenialStaysMinus32003() {
        String missing = "test://nonexistent-resource-for-conformance-testing";
        Modern.read(bob, 30, missing).statusCode(200).body("id", equalTo(30))
                .body("error.code", equalTo(-32602))
                .body("error.data", equalTo(Map.of("uri", missing)))
                .body("result", nullValue());
        var denied = Modern.read(bob, 31, "file:///docs/home/alice/notes.md").statusCode(200)
                .body("error.code", equalTo(-32003))
                .body("error.data.uri", equalTo("file:///docs/home/alice/notes.md"))
                .body("error.data.requestId", notNullValue())
                .body("result", nullValue()).extract();
        var rows = records(denied);
        assertEquals(1, rows.size());
        assertEquals("DENY", rows.get(0).decision);
        assertEquals(-32003, rows.get(0).errorCode);
        assertEquals("2026-07-28", rows.get(0).protocol);
    }

    @Test
    void notificationsAndResponsesAreAcceptedSessionHeadersIgnored() {
        String cancelled = "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/cancelled\",\"params\":{\"requestId\":\"listen:0\","
                + "\"_meta\":" + Modern.meta(Modern.VERSION) + "}}";
        Modern.bare(bob).header("MCP-Protocol-Version", Modern.VERSION).body(cancelled).post("/mcp").then().statusCode(202)
                .body(emptyOrNullString());
        // A stale session id from another era means nothing to a stateless request.
        Modern.as(bob, "resources/read").header("Mcp-Session-Id", "no-such-session").header("Mcp-Name", "test://static-text")
                .body(Modern.body(40, "resources/read", "\"uri\":\"test://static-text\"")).post("/mcp").then()
                .statusCode(200).body("result.contents[0].uri", equalTo("test://static-text"));
    }

    @Test
    void malformedBodiesAndBatches() {
        Modern.as(bob, "server/discover").body("{\"jsonrpc\":").post("/mcp").then().statusCode(400)
                .body("error.code", equalTo(-32700)).body("$", not(hasKey("id")));
        String batch = "[" + Modern.body(1, "server/discover", null) + "]";
        Modern.bare(bob).body(batch).post("/mcp").then().statusCode(400).body("error.code", equalTo(-32600));
        // With the 2026-07-28 header, refused in that revision's shape (no id, no data), saying there are no batches.
        // Before, in the 2025 shape ("id":null and data).
        Modern.as(bob, "server/discover").body(batch).post("/mcp").then().statusCode(400).body("error.code", equalTo(-32600))
                .body("$", not(hasKey("id"))).body("error", not(hasKey("data")))
                .body("error.message", equalTo("2026-07-28 has no batches: send each request in a POST of its own"));
    }

    @Test
    void completionOnTheStatelessRevision() {
        Modern.call(bob, 50, "completion/complete", "\"ref\":{\"type\":\"ref/resource\",\"uri\":\"file:///docs/{+path}\"},"
                + "\"argument\":{\"name\":\"path\",\"value\":\"hand\"}").statusCode(200)
                .body("result.resultType", equalTo("complete"))
                .body("result.completion.values", equalTo(List.of("handbook/")))
                .body("result", not(hasKey("ttlMs")));
    }

    /** Completion judges each value as list and read do: a tenant folder is offered only to that tenant. */
    @Test
    void completionOffersTenantFoldersOnlyToCallersOfThatTenant() {
        String noTenant = TestIssuer.sign(TestIssuer.claims("bob"));
        String tenants = "\"ref\":{\"type\":\"ref/resource\",\"uri\":\"file:///docs/{+path}\"},"
                + "\"argument\":{\"name\":\"path\",\"value\":\"%s\"}";
        Modern.call(noTenant, 51, "completion/complete", tenants.formatted("ten")).statusCode(200)
                .body("result.completion.values", equalTo(List.of()));
        Modern.call(noTenant, 52, "completion/complete", tenants.formatted("tenants/")).statusCode(200)
                .body("result.completion.values", equalTo(List.of()));
        // bob's usual token says tenant acme: the acme folder, and not globex's.
        Modern.call(bob, 53, "completion/complete", tenants.formatted("ten")).statusCode(200)
                .body("result.completion.values", equalTo(List.of("tenants/")));
        Modern.call(bob, 54, "completion/complete", tenants.formatted("tenants/")).statusCode(200)
                .body("result.completion.values", equalTo(List.of("tenants/acme/")));
        // The same caller without a tenant reads nothing there either, which is what completion must agree with.
        Modern.read(noTenant, 55, "file:///docs/tenants/acme/report.md").statusCode(200).body("error.code", equalTo(-32003));
    }

    @Test
    void bothErasServeTheSameContentSideBySide() {
        String session = Rpc.initialize(alice, "2025-11-25");
        String legacy = Rpc.call(alice, session, "{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"resources/read\","
                + "\"params\":{\"uri\":\"file:///docs/home/alice/notes.md\"}}").statusCode(200)
                .body("result", not(hasKey("resultType"))).body("result", not(hasKey("ttlMs")))
                .extract().jsonPath().getString("result.contents[0].text");
        String modern = Modern.read(alice, 7, "file:///docs/home/alice/notes.md").statusCode(200)
                .extract().jsonPath().getString("result.contents[0].text");
        assertEquals(legacy, modern);
        // The 2025 not-found is still -32002.
        Rpc.call(alice, session, "{\"jsonrpc\":\"2.0\",\"id\":8,\"method\":\"resources/read\","
                + "\"params\":{\"uri\":\"test://nonexistent\"}}").statusCode(200).body("error.code", equalTo(-32002));
    }

    /** quaestor.oauth.required-scopes (resources:read in tests) applies to every MCP call, on both revisions. */
    @Test
    void aTokenWithoutTheRequiredScopeIsSteppedUp() {
        String narrow = TestIssuer.tokenFor("bob", "openid");
        for (var spec : List.of(Modern.as(narrow, "server/discover").body(Modern.body(1, "server/discover", null)),
                Rpc.as(narrow).body(Rpc.init("2025-11-25")))) {
            var r = spec.post("/mcp").then().statusCode(403)
                    .header("WWW-Authenticate", containsString("Bearer error=\"insufficient_scope\""))
                    .header("WWW-Authenticate", containsString("scope=\"resources:read\""))
                    .header("WWW-Authenticate", containsString("resource_metadata=\""))
                    .header("WWW-Authenticate", containsString("/.well-known/oauth-protected-resource/mcp\""))
                    .extract();
            var rows = records(r);
            assertEquals(1, rows.size());
            assertEquals("AUTHENTICATION", rows.get(0).kind);
            assertEquals("insufficient-scope", rows.get(0).outcome);
            assertEquals("bob", rows.get(0).subject);
        }
        // A rule's when: scopes is a policy condition, not a step-up: its denial is -32003.
        Modern.read(bob, 60, "test-data://scoped").statusCode(200).body("error.code", equalTo(-32003));
        Modern.read(TestIssuer.tokenFor("bob", "openid resources:read records:audit"), 61, "test-data://scoped")
                .statusCode(200).body("result.contents[0].uri", equalTo("test-data://scoped"))
                // This mount's results may be reused for a minute.
                .body("result.ttlMs", equalTo(60_000)).body("result.cacheScope", equalTo("private"));
    }
}
