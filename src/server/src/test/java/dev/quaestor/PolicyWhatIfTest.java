package dev.quaestor;

import dev.quaestor.policy.whatif.Fact;
import dev.quaestor.policy.whatif.FactsFile;
import dev.quaestor.policy.whatif.ReportJson;
import dev.quaestor.policy.whatif.WhatIfReport;
import dev.quaestor.support.Repo;
import dev.quaestor.support.Rpc;
import dev.quaestor.support.TestIssuer;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import java.io.BufferedReader;
import java.io.StringReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.matchesPattern;
import static org.hamcrest.Matchers.startsWith;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What-if against a running server's own history: real requests recorded, the auditor's facts export (no request ids,
 * on record), and the administrator's what-if, which replays every recorded decision under its own revision too.
 */
@QuarkusTest
class PolicyWhatIfTest {

    static final String SUMMARY = "file:///docs/trials/onco-734/summary.md";

    /** An administrator who is an auditor too: the what-if names subjects, URIs and requests to them. */
    private final String officer = TestIssuer.sign(TestIssuer.claims("policy-officer")
            .claim("realm_access", Map.of("roles", List.of("quaestor-admin", "quaestor-auditor"))));
    static final String CLINICIAN_SUMMARIES = """
            apiVersion: quaestor/v1
            kind: Policy
            rules:
              - id: clinicians-read-trial-summaries
                effect: allow
                actions: [read]
                resources: ["file:///docs/trials/*/summary.md"]
                subjects: {roles: [clinician]}
            """;

    private static String read(String token, String session, String uri) {
        return Rpc.call(token, session, "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"resources/read\",\"params\":{\"uri\":\"" + uri + "\"}}")
                .statusCode(200).extract().header("X-Request-Id");
    }

    private static Map<String, String> samplesWith(String name, String text) throws Exception {
        var files = new LinkedHashMap<String, String>();
        try (Stream<Path> s = Files.list(Repo.POLICIES)) {
            for (Path p : s.filter(p -> p.toString().endsWith(".yaml")).sorted().toList()) {
                files.put(p.getFileName().toString(), Files.readString(p));
            }
        }
        files.put(name, text);
        return files;
    }

    @Test
    void theRecordedHistoryReplaysAsRecordedAndShowsWhoWouldGain() throws Exception {
        Instant from = Instant.now().minusSeconds(1);
        String bob = TestIssuer.tokenFor("bob");
        String bobSession = Rpc.initialize(bob, "2025-06-18");
        var bobRequests = List.of(read(bob, bobSession, SUMMARY), read(bob, bobSession, SUMMARY));
        // Bob once more, with another role: the same subject and URI, a request the proposal leaves refused. It is
        // not one of the requests he would gain, so it is never shown as an example of them.
        String bobAsVisitor = TestIssuer.sign(TestIssuer.claims("bob").claim("realm_access", Map.of("roles", List.of("visitor"))));
        String stillRefused = read(bobAsVisitor, Rpc.initialize(bobAsVisitor, "2025-06-18"), SUMMARY);
        String alice = TestIssuer.tokenFor("alice");
        String aliceSession = Rpc.initialize(alice, "2025-06-18");
        read(alice, aliceSession, SUMMARY);
        read(alice, aliceSession, "file:///docs/trials/onco-734/raw/sample-001.bin");
        read(alice, aliceSession, "file:///docs/handbook/welcome.md");
        Rpc.call(bob, bobSession, "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"resources/list\",\"params\":{}}").statusCode(200);
        Instant to = Instant.now().plusSeconds(1);

        // The auditor's export: facts with counts, no request ids.
        Instant exported = Instant.now();
        String export = given().header("Authorization", "Bearer " + TestIssuer.tokenFor("auditor"))
                .get("/audit/facts?from=" + from + "&to=" + to).then().statusCode(200).extract().asString();
        var facts = new ArrayList<Fact>();
        FactsFile.read(new BufferedReader(new StringReader(export)), facts::add);
        Fact bobs = facts.stream().filter(f -> "bob".equals(f.subject()) && SUMMARY.equals(f.uri())
                && f.roles().equals(List.of("clinician"))).findFirst().orElseThrow();
        assertEquals(2, bobs.count());
        assertEquals("DENY", bobs.decision());
        assertEquals(List.of("clinician"), bobs.roles());
        for (String id : bobRequests) {
            assertFalse(export.contains(id), "the export holds no request id");
        }
        assertTrue(facts.stream().anyMatch(Fact::listing), export);
        given().header("Authorization", "Bearer " + TestIssuer.tokenFor("auditor"))
                .get("/audit/search?kind=AUDIT_READ&subject=auditor&from=" + exported).then().statusCode(200)
                .body("records.findAll { it.method == 'audit/facts' }.size()", equalTo(1));

        // The what-if over the same window, asked by an administrator who is an auditor too: with names.
        Instant asked = Instant.now();
        var body = new LinkedHashMap<String, Object>();
        body.put("files", samplesWith("clinical-trials.yaml",
                Files.readString(Repo.ROOT.resolve("deploy/examples/what-if/clinical-trials.yaml"))));
        body.put("from", from.toString());
        body.put("to", to.toString());
        String json = given().header("Authorization", "Bearer " + officer).contentType("application/json")
                .body(body).post("/admin/policy/what-if").then().log().ifValidationFails().statusCode(200).extract().asString();
        WhatIfReport report = ReportJson.read(json);
        assertFalse(report.namesWithheld(), json);
        assertEquals(1, report.gained().size(), json);
        var gained = report.gained().get(0);
        assertEquals("bob", gained.subject());
        assertEquals(SUMMARY, gained.uri());
        assertEquals(2, gained.requests());
        assertEquals(List.of(), gained.rulesBefore());
        assertEquals(List.of("clinicians-read-trial-summaries"), gained.rulesAfter());
        assertFalse(gained.examples().contains(stillRefused), "a request the change leaves refused is no example of a gain: " + json);
        assertEquals(new java.util.HashSet<>(bobRequests), new java.util.HashSet<>(gained.examples()));
        assertEquals(List.of(), report.lost());
        assertTrue(report.summary().listingRecords() >= 1, json);
        assertEquals(report.summary().records() - report.summary().listingRecords() - report.summary().notReplayableRecords(),
                report.check().records(), "every judged decision is checked under its own revision: " + json);
        assertTrue(report.check().records() >= 5, json);
        assertEquals(0, report.check().mismatched(), json);
        assertFalse(report.guardCrossed(), json);
        given().header("Authorization", "Bearer " + TestIssuer.tokenFor("auditor"))
                .get("/audit/search?kind=ADMIN&subject=policy-officer&from=" + asked).then().statusCode(200)
                .body("records.findAll { it.method == 'admin/policy/what-if' }.size()", equalTo(1));

        // An administrator alone, who may not read the audit trail, is told the same change by recorded roles and URI
        // prefix: no subject, no URI below its prefix, no request id. Before, the same names as above.
        String nameless = given().header("Authorization", "Bearer " + TestIssuer.tokenFor("admin")).contentType("application/json")
                .body(body).post("/admin/policy/what-if").then().log().ifValidationFails().statusCode(200).extract().asString();
        WhatIfReport withheld = ReportJson.read(nameless);
        assertTrue(withheld.namesWithheld(), nameless);
        assertEquals(1, withheld.gained().size(), nameless);
        var byRole = withheld.gained().get(0);
        assertEquals(null, byRole.subject());
        assertEquals(List.of("clinician"), byRole.roles());
        assertEquals("file:///docs/trials/", byRole.uri());
        assertEquals(2, byRole.requests());
        assertEquals(List.of("clinicians-read-trial-summaries"), byRole.rulesAfter());
        assertEquals(List.of(), byRole.examples());
        for (String name : List.of("\"bob\"", "\"alice\"", SUMMARY, bobRequests.get(0), bobRequests.get(1))) {
            assertFalse(nameless.contains(name), name + " in " + nameless);
        }
        assertEquals(report.check().records(), withheld.check().records());
        // Nor may it go deeper than the folders above a person's own.
        body.put("depth", 3);
        given().header("Authorization", "Bearer " + TestIssuer.tokenFor("admin")).contentType("application/json").body(body)
                .post("/admin/policy/what-if").then().statusCode(400).body("error", containsString("auditor role"));
        body.remove("depth");

        // Without the deny on raw genomics, Alice's raw read would be allowed if her token held the scope the record
        // does not keep: not judged, and a possible gain under the samples' guard.
        String clinical = Files.readString(Repo.POLICIES.resolve("clinical-trials.yaml"));
        int deny = clinical.indexOf("  - id: no-raw-genomics");
        body.put("files", samplesWith("clinical-trials.yaml", clinical.substring(0, deny) + clinical.substring(clinical.indexOf("guards:"))
                .replaceAll("(?s)  - name: Raw genomics stay closed even to a PI.*?expect: deny\n", "")));
        @SuppressWarnings("unchecked")
        var files = (Map<String, String>) body.get("files");
        files.put("break-glass.yaml", files.get("break-glass.yaml").replaceAll("(?s)  - name: Never raw genomics.*?expect: deny\n", ""));
        WhatIfReport open = ReportJson.read(given().header("Authorization", "Bearer " + officer)
                .contentType("application/json").body(body).post("/admin/policy/what-if").then().log().ifValidationFails()
                .statusCode(200).extract().asString());
        var raw = open.notJudged().stream().filter(u -> u.uri().endsWith("raw/sample-001.bin")).findFirst().orElseThrow();
        assertEquals(List.of("scope resources:read"), raw.missing());
        assertEquals("raw-genomics-stay-shut", open.guardHits().get(0).guard());
        assertEquals("may gain (not judged)", open.guardHits().get(0).change());
    }

    @Test
    void theCommandAsksTheRunningServerWithAnAdministratorsToken(@org.junit.jupiter.api.io.TempDir Path tmp) throws Exception {
        Path proposed = Files.createDirectories(tmp.resolve("proposed"));
        for (var f : samplesWith("clinical-trials.yaml",
                Files.readString(Repo.ROOT.resolve("deploy/examples/what-if/clinical-trials.yaml"))).entrySet()) {
            Files.writeString(proposed.resolve(f.getKey()), f.getValue());
        }
        String alice = TestIssuer.tokenFor("alice");
        // A decision within the last hour, whichever test ran first (one that changes nothing the other tests count).
        read(alice, Rpc.initialize(alice, "2025-06-18"), "file:///docs/handbook/welcome.md");
        String server = "http://localhost:" + io.restassured.RestAssured.port;
        Path admin = Files.writeString(tmp.resolve("admin.token"), TestIssuer.tokenFor("admin") + "\n");
        Path json = tmp.resolve("what-if.json");
        var out = new java.io.ByteArrayOutputStream();
        var err = new java.io.ByteArrayOutputStream();

        int code = dev.quaestor.cli.WhatIfCommand.run(new String[] {"what-if", proposed.toString(), "--server", server,
            "--token-file", admin.toString(), "--since", "1h", "--json", json.toString()}, new java.io.PrintStream(out, true),
                new java.io.PrintStream(err, true));

        assertEquals(0, code, err.toString());
        assertTrue(out.toString().contains("recorded decisions replayed under their own revision"), out.toString());
        assertTrue(out.toString().contains("names withheld (for holders of the auditor role)"), out.toString());
        assertEquals(0, ReportJson.read(Files.readString(json)).check().mismatched());
        Path auditor = Files.writeString(tmp.resolve("auditor.token"), TestIssuer.tokenFor("auditor"));
        err.reset();
        assertEquals(2, dev.quaestor.cli.WhatIfCommand.run(new String[] {"what-if", proposed.toString(), "--server", server,
            "--token-file", auditor.toString()}, new java.io.PrintStream(out, true), new java.io.PrintStream(err, true)));
        assertTrue(err.toString().contains("answered 403"), err.toString());
    }

    @Test
    void whatIfIsForAdministratorsAndTheExportForAuditors() {
        var body = Map.of("files", Map.of("a.yaml", CLINICIAN_SUMMARIES));
        given().header("Authorization", "Bearer " + TestIssuer.tokenFor("auditor")).contentType("application/json").body(body)
                .post("/admin/policy/what-if").then().statusCode(403);
        given().header("Authorization", "Bearer " + TestIssuer.tokenFor("admin")).get("/audit/facts?since=1d").then().statusCode(403);
        given().contentType("application/json").body(body).post("/admin/policy/what-if").then().statusCode(401);
    }

    @Test
    void aRejectedProposalOrWindowIsABadRequestNamingTheProblem() {
        given().header("Authorization", "Bearer " + TestIssuer.tokenFor("admin")).contentType("application/json")
                .body(Map.of("files", Map.of("a.yaml", CLINICIAN_SUMMARIES.replace("effect: allow", "efect: allow"))))
                .post("/admin/policy/what-if").then().statusCode(400)
                .body("errors[0]", startsWith("a.yaml:5: unknown key 'efect' in rule"));
        given().header("Authorization", "Bearer " + TestIssuer.tokenFor("auditor")).get("/audit/facts?since=yesterday")
                .then().statusCode(400).body("error", equalTo("since must look like 30d or 12h, not 'yesterday'"));
        // A start after now with no end: the end is now, quoted to the second as every window is printed.
        given().header("Authorization", "Bearer " + TestIssuer.tokenFor("admin")).contentType("application/json")
                .body(Map.of("files", Map.of("a.yaml", CLINICIAN_SUMMARIES), "from", "2999-01-01T00:00:00Z"))
                .post("/admin/policy/what-if").then().statusCode(400)
                .body("error", matchesPattern("the window's start \\(2999-01-01T00:00:00Z\\) is not before its end "
                        + "\\(\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\dZ\\)"));
    }

    /**
     * A deny moved into a file the server would not read must not pass review as "no change": deployed, the file is
     * skipped and the deny is gone. What-if refuses such names, as a directory with them is refused.
     */
    @Test
    void aProposedFileNamedAsNoPolicyFileIsABadRequest() throws Exception {
        String clinical = Files.readString(Repo.POLICIES.resolve("clinical-trials.yaml"));
        for (String name : List.of("raw.YAML", ".raw.yaml")) {
            var files = samplesWith(name, "apiVersion: quaestor/v1\nkind: Policy\nrules:\n"
                    + clinical.substring(clinical.indexOf("  - id: no-raw-genomics"), clinical.indexOf("guards:")));
            files.put("clinical-trials.yaml", clinical.substring(0, clinical.indexOf("  - id: no-raw-genomics"))
                    + clinical.substring(clinical.indexOf("guards:")));
            given().header("Authorization", "Bearer " + TestIssuer.tokenFor("admin")).contentType("application/json")
                    .body(Map.of("files", files, "since", "1h")).post("/admin/policy/what-if").then().statusCode(400)
                    .body("error", equalTo("the proposed policy set is rejected"))
                    .body("errors", org.hamcrest.Matchers.contains(name + ": not a policy file name, so a server would not read"
                            + " this file: policy files are named *.yaml or *.yml, in lower case, not starting with a dot"));
        }
    }

    @Test
    void anUnknownFieldOrAValueOfTheWrongTypeIsABadRequestNamingIt() {
        given().header("Authorization", "Bearer " + TestIssuer.tokenFor("admin")).contentType("application/json")
                .body(Map.of("files", Map.of("a.yaml", CLINICIAN_SUMMARIES), "snice", "1h")).post("/admin/policy/what-if")
                .then().statusCode(400).body("field", equalTo("snice"))
                .body("error", equalTo("unknown field 'snice'; the fields are depth, examples, files, from, since, to"));
        given().header("Authorization", "Bearer " + TestIssuer.tokenFor("admin")).contentType("application/json")
                .body(Map.of("files", List.of(CLINICIAN_SUMMARIES))).post("/admin/policy/what-if")
                .then().statusCode(400).body("field", equalTo("files"))
                .body("error", equalTo("field 'files' must be an object of names to strings"));
        given().header("Authorization", "Bearer " + TestIssuer.tokenFor("admin")).contentType("application/json")
                .body("{\"files\":{\"a.yaml\":null},\"since\":\"1h\"}").post("/admin/policy/what-if")
                .then().statusCode(400).body("error", equalTo("files.a.yaml is null: give each file's text as a string"));
        // No value is converted to another type, and a number too large for its field is named, not "not JSON".
        given().header("Authorization", "Bearer " + TestIssuer.tokenFor("admin")).contentType("application/json")
                .body("{\"files\":{\"a.yaml\":\"x\"},\"depth\":\"2\"}").post("/admin/policy/what-if")
                .then().statusCode(400).body("field", equalTo("depth")).body("error", equalTo("field 'depth' must be a whole number"));
        given().header("Authorization", "Bearer " + TestIssuer.tokenFor("admin")).contentType("application/json")
                .body("{\"files\":{\"a.yaml\":\"x\"},\"examples\":1.5}").post("/admin/policy/what-if")
                .then().statusCode(400).body("field", equalTo("examples")).body("error", equalTo("field 'examples' must be a whole number"));
        given().header("Authorization", "Bearer " + TestIssuer.tokenFor("admin")).contentType("application/json")
                .body("{\"files\":{\"a.yaml\":5}}").post("/admin/policy/what-if")
                .then().statusCode(400).body("error", startsWith("field 'files.a.yaml' must be a string"));
        given().header("Authorization", "Bearer " + TestIssuer.tokenFor("admin")).contentType("application/json")
                .body("{\"files\":{\"a.yaml\":\"x\"},\"depth\":99999999999}").post("/admin/policy/what-if")
                .then().statusCode(400).body("field", equalTo("depth"))
                .body("error", equalTo("field 'depth' must be a whole number in range"));
    }

    /** A replay of nothing crosses no guard: a window without recorded decisions must not pass a change. */
    @Test
    void aWindowWithoutRecordedDecisionsIsABadRequest() {
        given().header("Authorization", "Bearer " + TestIssuer.tokenFor("admin")).contentType("application/json")
                .body(Map.of("files", Map.of("a.yaml", CLINICIAN_SUMMARIES), "from", "2020-01-01T00:00:00Z",
                        "to", "2020-01-02T00:00:00Z"))
                .post("/admin/policy/what-if").then().statusCode(400)
                .body("error", startsWith("no decision is recorded in the window 2020-01-01T00:00:00Z .. 2020-01-02T00:00:00Z:"));
    }
}
