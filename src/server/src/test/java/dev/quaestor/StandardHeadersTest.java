package dev.quaestor;

import dev.quaestor.support.AuditRow;
import dev.quaestor.support.Modern;
import dev.quaestor.support.TestIssuer;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.ExtractableResponse;
import io.restassured.response.Response;
import io.restassured.specification.RequestSpecification;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import org.junit.jupiter.api.Test;

import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The 2026-07-28 standard headers a proxy routes on ({@code Mcp-Method}, {@code Mcp-Name}) must state what the
 * body says, and the URI must already be canonical, so that the header a proxy saw, the URI the policy judged and
 * the URI in the audit record are one string. Each refusal is answered, audited as a {@code DECISION}
 * {@code DENY} committed before the answer, and never served: no {@code OUTCOME}, no content.
 */
@QuarkusTest
class StandardHeadersTest {

    private static final String URI = "file:///docs/home/bob/notes.md";
    private final String bob = TestIssuer.tokenFor("bob");

    private static String b64(String s) {
        return "=?base64?" + Base64.getEncoder().encodeToString(s.getBytes(StandardCharsets.UTF_8)) + "?=";
    }

    private static String readBody(Object id, String uri) {
        return Modern.body(id, "resources/read", "\"uri\":\"" + uri + "\"");
    }

    /** The request was refused with this code, audited before the answer, and nothing was served. */
    private static void refusedAndAudited(ExtractableResponse<Response> r, int status, int code, String outcome, String uri) {
        assertEquals(status, r.statusCode(), r.asString());
        assertEquals(code, r.jsonPath().getInt("error.code"), r.asString());
        assertFalse(r.asString().contains("contents"), "nothing is served: " + r.asString());
        List<AuditRow> rows = AuditRow.list("request_id = ? ORDER BY seq", r.header("X-Request-Id"));
        assertEquals(1, rows.size(), "one record, and no OUTCOME: " + rows);
        AuditRow row = rows.get(0);
        assertEquals("DECISION", row.kind);
        assertEquals("DENY", row.decision);
        assertEquals(outcome, row.outcome);
        assertEquals(code, row.errorCode);
        assertEquals("resources/read", row.method);
        assertEquals(uri, row.uri);
        assertNull(row.rules, "policy was not consulted");
        assertEquals("bob", row.subject);
    }

    private RequestSpecification read(Object id, String uri) {
        return Modern.as(bob, "resources/read").body(readBody(id, uri));
    }

    @Test
    void aMissingOrDifferingMcpMethodIsRefused() {
        var missing = Modern.bare(bob).header("MCP-Protocol-Version", Modern.VERSION).header("Mcp-Name", URI)
                .body(readBody(1, URI)).post("/mcp").then().extract();
        refusedAndAudited(missing, 400, -32020, "header-mismatch", URI);
        assertEquals(1, missing.jsonPath().getInt("id"));

        // A proxy allowing resources/list would let this through as a listing: it must not become a read.
        var differing = Modern.as(bob, "resources/list").header("Mcp-Name", URI).body(readBody(2, URI)).post("/mcp").then()
                .extract();
        refusedAndAudited(differing, 400, -32020, "header-mismatch", URI);
        assertTrue(differing.jsonPath().getString("error.message").contains("Mcp-Method"));

        var upperCase = Modern.as(bob, "RESOURCES/READ").header("Mcp-Name", URI).body(readBody(3, URI)).post("/mcp").then()
                .extract();
        refusedAndAudited(upperCase, 400, -32020, "header-mismatch", URI);
    }

    @Test
    void aMissingOrDifferingMcpNameIsRefused() {
        var missing = read(4, URI).post("/mcp").then().extract();
        refusedAndAudited(missing, 400, -32020, "header-mismatch", URI);
        assertTrue(missing.jsonPath().getString("error.message").contains("Mcp-Name"));

        // The header names a file bob may read, the body one he may not: refused before policy sees either.
        var differing = read(5, "file:///docs/home/alice/notes.md").header("Mcp-Name", URI).post("/mcp").then().extract();
        refusedAndAudited(differing, 400, -32020, "header-mismatch", "file:///docs/home/alice/notes.md");

        var encodedDiffering = read(6, "file:///docs/home/alice/notes.md").header("Mcp-Name", b64(URI)).post("/mcp").then()
                .extract();
        refusedAndAudited(encodedDiffering, 400, -32020, "header-mismatch", "file:///docs/home/alice/notes.md");

        var notBase64 = read(7, URI).header("Mcp-Name", "=?base64?not*base64?=").post("/mcp").then().extract();
        refusedAndAudited(notBase64, 400, -32020, "header-mismatch", URI);

        // Base64 whose unused last bits are set decodes (leniently) to the same URI, but is not its encoding.
        String handbook = "file:///docs/handbook/welcome.md";
        String canonical = b64(handbook);
        int last = canonical.lastIndexOf("?=") - 1;
        while (canonical.charAt(last) == '=') {
            last--;
        }
        String loose = canonical.substring(0, last) + (char) (canonical.charAt(last) + 1) + canonical.substring(last + 1);
        assertEquals(handbook, new String(Base64.getDecoder().decode(loose.substring(9, loose.length() - 2)), StandardCharsets.UTF_8));
        var nonCanonical = read(10, handbook).header("Mcp-Name", loose).post("/mcp").then().extract();
        refusedAndAudited(nonCanonical, 400, -32020, "header-mismatch", handbook);
    }

    /**
     * A read with no uri to compare the header with (absent, or not a string): the header is required all the same,
     * and checked before the params. A subject of its own: bob's refusals are counted by the other tests.
     */
    @Test
    void aReadWithoutAStringUriStillNeedsItsMcpName() {
        String reader = TestIssuer.sign(TestIssuer.claims("no-uri-reader"));
        for (String params : new String[] {"", "\"uri\":5"}) {
            var noUri = Modern.as(reader, "resources/read").body(Modern.body(11, "resources/read", params)).post("/mcp").then().extract();
            assertEquals(400, noUri.statusCode(), noUri.asString());
            assertEquals(-32020, noUri.jsonPath().getInt("error.code"), noUri.asString());
            assertTrue(noUri.jsonPath().getString("error.message").contains("Mcp-Name header is required"), noUri.asString());
            List<AuditRow> rows = AuditRow.list("request_id = ? ORDER BY seq", noUri.header("X-Request-Id"));
            assertEquals(1, rows.size(), rows.toString());
            assertEquals("DENY/header-mismatch/no-uri-reader", rows.get(0).decision + "/" + rows.get(0).outcome + "/" + rows.get(0).subject);
        }
        // Given, the params are judged: invalid, not a header mismatch.
        Modern.as(reader, "resources/read").header("Mcp-Name", "5").body(Modern.body(12, "resources/read", "\"uri\":5")).post("/mcp")
                .then().statusCode(200).body("error.code", equalTo(-32602));
    }

    /**
     * A standard header given on two lines is refused: joined, {@code Mcp-Name: file:///docs/a} and {@code Mcp-Name: b.md}
     * would read as the one name {@code file:///docs/a,b.md}, while a proxy that goes by the first line sees another.
     * One line holding a comma is a name like any other.
     */
    @Test
    void aStandardHeaderGivenTwiceIsRefused() {
        String comma = "file:///docs/home/bob/a,b.md";
        var twice = read(11, comma).header("Mcp-Name", "file:///docs/home/bob/a").header("Mcp-Name", "b.md").post("/mcp").then()
                .extract();
        refusedAndAudited(twice, 400, -32020, "header-mismatch", comma);
        assertTrue(twice.jsonPath().getString("error.message").contains("Mcp-Name header given more than once"), twice.asString());

        var method = Modern.as(bob, "resources/read").header("Mcp-Method", "resources/read").header("Mcp-Name", URI)
                .body(readBody(12, URI)).post("/mcp").then().extract();
        refusedAndAudited(method, 400, -32020, "header-mismatch", URI);
        assertTrue(method.jsonPath().getString("error.message").contains("Mcp-Method header given more than once"), method.asString());

        // One line with a comma in it: read as that name (here a file that is not there), not refused as two.
        read(13, comma).header("Mcp-Name", comma).post("/mcp").then().statusCode(200).body("error.code", equalTo(-32602))
                .body("error.data.uri", equalTo(comma));
    }

    @Test
    void aBase64EncodedMcpNameIsDecodedBeforeTheComparison() {
        var r = read(8, URI).header("Mcp-Name", b64(URI)).post("/mcp").then().statusCode(200)
                .body("result.contents[0].uri", equalTo(URI)).extract();
        var rows = AuditRow.list("request_id = ? ORDER BY seq", r.header("X-Request-Id"));
        assertEquals(List.of("DECISION", "OUTCOME"), rows.stream().map(x -> x.kind).toList());
        assertEquals(URI, rows.get(0).uri);
        assertEquals("ALLOW", rows.get(0).decision);
        // Header names are case-insensitive; spaces and tabs around a value are not part of it.
        Modern.bare(bob).header("mcp-protocol-version", Modern.VERSION).header("mcp-method", " resources/read ")
                .header("mcp-name", "  " + URI + "\t").body(readBody(9, URI)).post("/mcp").then().statusCode(200)
                .body("result.contents[0].uri", equalTo(URI));
    }

    @Test
    void aNonCanonicalUriIsRefusedAsInvalidParams() {
        for (String raw : new String[] {"FILE:///docs/home/bob/notes.md", "file:///docs/home/./bob/notes.md",
                "file:///docs/home/%62ob/notes.md"}) {
            // The headers agree with the body, so the transport lets it through; the URI itself is not in canonical form.
            var r = read(10, raw).header("Mcp-Name", raw).post("/mcp").then().extract();
            refusedAndAudited(r, 200, -32602, "non-canonical-uri", raw);
            assertEquals(URI, r.jsonPath().getString("error.data.canonicalUri"), r.asString());
            assertTrue(r.jsonPath().getString("error.message").contains(URI));
        }
        // The same URI on a 2025 session is canonicalised and served, as it always was.
        String session = dev.quaestor.support.Rpc.initialize(bob, "2025-06-18");
        dev.quaestor.support.Rpc.call(bob, session, "{\"jsonrpc\":\"2.0\",\"id\":11,\"method\":\"resources/read\","
                + "\"params\":{\"uri\":\"FILE:///docs/home/bob/notes.md\"}}").statusCode(200)
                .body("result.contents[0].uri", equalTo(URI));
    }
}
