package dev.quaestor.cases;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.quaestor.support.AuditRow;
import dev.quaestor.support.TestIssuer;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import io.restassured.specification.RequestSpecification;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The calls about cases and their holds take only their own query parameters (none, but {@code before} where a list is
 * paged), each once, as the rest of the auditor API does: an unknown or repeated one is answered 400 naming it and what
 * is accepted, on record as a {@code DENY} with outcome {@code invalid} (under the case's uri, as the call's kind), and
 * nothing is read or changed. A caller who is not staff is refused 403 as before, whatever its query.
 */
@QuarkusTest
class CaseQueryRefusalTest {

    private static RequestSpecification as(String user) {
        return given().header("Authorization", "Bearer " + TestIssuer.tokenFor(user)).contentType("application/json")
                .urlEncodingEnabled(false);
    }

    private static long open(String title) {
        return as("auditor").body("{\"title\":\"" + title + "\",\"description\":\"why\",\"members\":[\"auditor2\"]}")
                .post("/audit/cases").then().statusCode(201).extract().jsonPath().getLong("id");
    }

    /** 400 naming {@code parameter}, on record once, as {@code kind} {@code invalid} with why, under {@code uri}. */
    private static void refused(Response r, String kind, String method, String uri, String parameter, String accepted) {
        assertEquals(400, r.statusCode(), method + ": " + r.asString());
        var body = r.jsonPath();
        assertEquals(parameter, body.getString("parameter"), r.asString());
        assertEquals(accepted, body.getString("accepted"), r.asString());
        assertTrue(body.getString("error").contains("'" + parameter + "'"), r.asString());
        String id = r.header("X-Request-Id");
        assertNotNull(id, "the answer names its record: " + r.asString());
        List<AuditRow> rows = AuditRow.list("request_id = ?", id);
        assertEquals(1, rows.size(), "one record of the call");
        AuditRow row = rows.get(0);
        assertEquals(kind, row.kind, method);
        assertEquals(method, row.method);
        assertEquals("DENY", row.decision, method);
        assertEquals("invalid", row.outcome, method);
        assertEquals(uri, row.uri, method);
        assertTrue(row.detail.contains(body.getString("error")), "why, in the record: " + row.detail);
    }

    @Test
    void aCallAboutCasesRefusesAnUnknownOrRepeatedParameter() {
        long id = open("Query refusals");
        String uri = AuditCase.uriOf(id);
        String base = "/audit/cases/" + id;

        refused(as("auditor").get("/audit/cases?befor=5"), "AUDIT_READ", "audit/cases/list", null, "befor", "before");
        refused(as("auditor").get("/audit/cases?before=5&before=6"), "AUDIT_READ", "audit/cases/list", null, "before", "one value");
        refused(as("auditor").get(base + "?verbose=1"), "AUDIT_READ", "audit/cases/open", uri, "verbose", "none");
        refused(as("auditor").get(base + "/history?befor=x"), "AUDIT_READ", "audit/cases/history", uri, "befor", "before");
        refused(as("auditor").get(base + "/records?limit=5"), "AUDIT_READ", "audit/cases/records", uri, "limit", "none");
        refused(as("auditor").get(base + "/searches/1/count?full"), "AUDIT_READ", "audit/cases/search-count", uri, "full", "none");
        refused(as("auditor").get(base + "/holds?state=active"), "AUDIT_READ", "audit/cases/holds", uri, "state", "none");

        long last = AuditRow.first("1=1 ORDER BY id DESC LIMIT 1").id;
        refused(as("auditor").body("{\"title\":\"never\",\"description\":\"x\",\"members\":[]}").post("/audit/cases?dryRun=true"),
                "ADMIN", "audit/cases/create", null, "dryRun", "none");
        assertEquals(0, AuditRow.count("id > ? AND method = 'audit/cases/create' AND decision = 'ALLOW'", last), "no case opened");
        refused(as("auditor").body("{\"member\":\"auditor3\"}").post(base + "/members?notify=no"), "ADMIN",
                "audit/cases/add-member", uri, "notify", "none");
        refused(as("auditor").delete(base + "/members/auditor2?force=1"), "ADMIN", "audit/cases/remove-member", uri, "force", "none");
        refused(as("auditor").body("{\"name\":\"s\",\"query\":\"subject=alice\"}").post(base + "/searches?x=1"), "ADMIN",
                "audit/cases/add-search", uri, "x", "none");
        refused(as("auditor").body("{\"requestId\":\"r\"}").post(base + "/requests?x=1"), "ADMIN", "audit/cases/add-request", uri, "x",
                "none");
        refused(as("auditor").body("{\"text\":\"kept?\"}").post(base + "/notes?tex=1"), "ADMIN", "audit/cases/add-note", uri, "tex",
                "none");
        refused(as("auditor").body("{\"scope\":\"subject\",\"subject\":\"alice\",\"reason\":\"r\"}").post(base + "/holds?x=1"), "ADMIN",
                "audit/cases/hold/put", uri, "x", "none");
        refused(as("auditor").body("{\"from\":\"2020-01-01T00:00:00Z\"}").post(base + "/holds/1/widen?x=1"), "ADMIN",
                "audit/cases/hold/widen", uri, "x", "none");
        refused(as("auditor").body("{\"reason\":\"r\"}").post(base + "/holds/1/release-request?x=1"), "ADMIN",
                "audit/cases/hold/ask-release", uri, "x", "none");
        refused(as("auditor").post(base + "/holds/1/release?x=1"), "ADMIN", "audit/cases/hold/release", uri, "x", "none");

        // Nothing was changed by the refused calls; the calls as documented still answer.
        var c = as("auditor").get(base).then().statusCode(200).extract().jsonPath();
        assertEquals(List.of("auditor", "auditor2"), c.getList("members.member").stream().sorted().toList(), c.prettify());
        assertEquals(List.of(), c.getList("notes"), c.prettify());
        assertEquals(List.of(), as("auditor").get(base + "/holds").then().statusCode(200).extract().jsonPath().getList("holds"));
        as("auditor").get(base + "/history").then().statusCode(200);
        as("auditor").get("/audit/cases").then().statusCode(200);
    }

    @Test
    void aCallerWhoIsNotStaffIsRefused403WhateverItsQuery() {
        as("carol").get("/audit/cases?befor=1").then().statusCode(403);
        AuditRow row = AuditRow.first("subject = 'carol' AND method = 'audit/cases/list' ORDER BY id DESC");
        assertEquals("forbidden", row.outcome);
        // The case administrator role alone may not read a case's records: 403 as before, whatever its query.
        long id = open("Query refusals, administrator");
        as("caseadmin").get("/audit/cases/" + id + "/records?limit=5").then().statusCode(403);
        row = AuditRow.first("subject = 'caseadmin' AND method = 'audit/cases/records' ORDER BY id DESC");
        assertEquals("forbidden", row.outcome);
    }
}
