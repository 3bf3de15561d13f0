package dev.quaestor.provider.database;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.quaestor.provider.InvalidCursorException;
import dev.quaestor.provider.Mount;
import dev.quaestor.provider.ResourceContent;
import dev.quaestor.provider.ResourceNotFoundException;
import dev.quaestor.provider.ResourceProvider;
import dev.quaestor.uri.CanonicalUri;
import dev.quaestor.uri.InvalidUriException;
import dev.quaestor.uri.UriCanonicalizer;
import dev.quaestor.uri.UriTemplate;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The database provider against the tests' PostgreSQL (a database of its own, created here). */
class DatabaseProviderTest {

    static final ObjectMapper JSON = new ObjectMapper();
    final List<ResourceProvider> open = new ArrayList<>();

    @BeforeAll
    static void database() {
        ContentDatabase.reset();
    }

    @AfterEach
    void close() {
        open.forEach(ResourceProvider::close);
    }

    static Map<String, String> standardQueries() {
        var q = new HashMap<String, String>();
        q.put("queries.patient.template", "db://records/patients/{id}");
        q.put("queries.patient.sql", "SELECT id, name, ward, born, admitted, meta, notes FROM patients WHERE id = ?");
        q.put("queries.patient.types", "integer");
        q.put("queries.patient.list-sql", "SELECT id FROM patients ORDER BY id");
        q.put("queries.patient.title", "Patient record");
        q.put("queries.by-name.template", "db://records/by-name/{name}");
        q.put("queries.by-name.sql", "SELECT id, name FROM patients WHERE name = ?");
        q.put("queries.ward.template", "db://records/wards/{ward}/patients.csv");
        q.put("queries.ward.sql", "SELECT id, name, notes FROM patients WHERE ward = ? ORDER BY id");
        q.put("queries.ward.kind", "list");
        q.put("queries.ward-json.template", "db://records/wards/{ward}/patients.json");
        q.put("queries.ward-json.sql", "SELECT id, name FROM patients WHERE ward = ? ORDER BY id");
        q.put("queries.ward-json.kind", "list");
        q.put("queries.ward-json.format", "json");
        q.put("queries.photo.template", "db://records/patients/{id}/photo");
        q.put("queries.photo.sql", "SELECT photo FROM patients WHERE id = ?");
        q.put("queries.photo.types", "integer");
        q.put("queries.photo.format", "raw");
        q.put("queries.photo.mime-type", "image/png");
        q.put("queries.all.template", "db://records/patients.csv");
        q.put("queries.all.sql", "SELECT id, name FROM patients ORDER BY id");
        q.put("queries.all.kind", "list");
        return q;
    }

    @Test
    void aMountCannotNameTheAuditLogsOwnPools() {
        for (String reserved : List.of("audit-writer", "audit-read")) {
            var settings = Map.of("datasource", reserved);
            var e = assertThrows(IllegalArgumentException.class, () -> new DatabaseProviderFactory(null, List.of("audit-writer", "audit-read"))
                    .create(new Mount("records", "database", UriCanonicalizer.canonicalize("db://records/"), "db://records/", settings)));
            assertTrue(e.getMessage().contains("reserved"), e.getMessage());
        }
    }

    ResourceProvider provider(Map<String, String> options) {
        var settings = new HashMap<>(options);
        settings.put("jdbc-url", ContentDatabase.url());
        settings.put("username", "postgres");
        settings.putIfAbsent("max-bytes", "100000");
        var p = new DatabaseProviderFactory(null, java.util.List.of("audit-writer", "audit-read")).create(new Mount("records", "database",
                UriCanonicalizer.canonicalize("db://records/"), "db://records/", settings));
        open.add(p);
        return p;
    }

    static CanonicalUri uri(String s) {
        return UriCanonicalizer.canonicalize(s);
    }

    static String text(ResourceContent c) {
        assertTrue(c.text());
        return new String(c.bytes(), StandardCharsets.UTF_8);
    }

    static JsonNode json(ResourceContent c) throws Exception {
        assertEquals("application/json", c.entry().mimeType());
        return JSON.readTree(text(c));
    }

    @Test
    void readsARowAsJsonWithTypedValues() throws Exception {
        var p = provider(standardQueries());
        JsonNode ada = json(p.read(uri("db://records/patients/1")));
        assertEquals(1, ada.get("id").intValue());
        assertTrue(ada.get("id").isNumber());
        assertEquals("Ada Lovelace", ada.get("name").textValue());
        assertEquals("1815-12-10", ada.get("born").textValue());
        assertEquals("penicillin", ada.get("meta").get("allergies").get(0).textValue(), "jsonb is embedded as JSON");
        assertTrue(ada.get("admitted").textValue().startsWith("2026-01-02T03:04:05"));
        JsonNode obrien = json(p.read(uri("db://records/patients/2")));
        assertTrue(obrien.get("born").isNull());
        assertEquals("O'Brien", json(p.read(uri("db://records/by-name/O'Brien"))).get("name").textValue());
    }

    /**
     * The CSV a mount serves is content: values exactly as stored, quoted only where needed, even those a
     * spreadsheet would compute (the formula guard belongs to exports of audit records, not to served content).
     */
    @Test
    void csvContentIsNeverAlteredEvenWhereASpreadsheetWouldSeeAFormula() throws Exception {
        var q = new HashMap<>(standardQueries());
        q.put("queries.formulas.template", "db://records/wards/{ward}/formulas.csv");
        q.put("queries.formulas.sql", "SELECT '=1+1' AS eq, E'\\t=1+1' AS tab, E'\\r=1' AS cr, '-5' AS minus, '+1' AS plus,"
                + " '@SUM(A1)' AS at, 'say \"hi\", then go' AS quoted, '' AS empty, NULL AS absent FROM patients WHERE ward = ? ORDER BY id");
        q.put("queries.formulas.kind", "list");
        var p = provider(q);
        String text = text(p.read(uri("db://records/wards/south/formulas.csv")));
        assertTrue(text.startsWith("eq,tab,cr,minus,plus,at,quoted,empty,absent\r\n"), text);
        var records = org.apache.commons.csv.CSVFormat.RFC4180.parse(new java.io.StringReader(text)).getRecords();
        assertEquals(3, records.size(), text);
        for (var r : records.subList(1, 3)) {
            assertEquals(List.of("=1+1", "\t=1+1", "\r=1", "-5", "+1", "@SUM(A1)", "say \"hi\", then go", "", ""), r.toList(), text);
        }
        assertTrue(text.contains("\r\n=1+1,\"\t=1+1\",\"\r=1\",-5,+1,@SUM(A1),"), "nothing prefixed: " + text);
    }

    @Test
    void readsListsAsCsvAndJson() throws Exception {
        var p = provider(standardQueries());
        ResourceContent csv = p.read(uri("db://records/wards/north/patients.csv"));
        assertEquals("text/csv", csv.entry().mimeType());
        assertEquals("id,name,notes\r\n1,Ada Lovelace,\"line one\nline \"\"two\"\", with comma\"\r\n2,O'Brien,\r\n", text(csv));
        JsonNode east = json(p.read(uri("db://records/wards/east/patients.json")));
        assertEquals(2, east.size());
        assertEquals("Edsger Dijkstra", east.get(1).get("name").textValue());
        assertEquals("id,name,notes\r\n", text(p.read(uri("db://records/wards/nowhere/patients.csv"))), "an empty list is not absent");
    }

    @Test
    void readsABinaryColumnAsABlob() {
        var p = provider(standardQueries());
        ResourceContent photo = p.read(uri("db://records/patients/1/photo"));
        assertFalse(photo.text());
        assertEquals("image/png", photo.entry().mimeType());
        assertArrayEquals(ContentDatabase.PHOTO, photo.bytes());
        assertThrows(ResourceNotFoundException.class, () -> p.read(uri("db://records/patients/2/photo")), "NULL column");
    }

    @Test
    void listsRowsAndFixedResourcesInPages() {
        var p = provider(standardQueries());
        var seen = new ArrayList<String>();
        String cursor = null;
        int pages = 0;
        do {
            var page = p.list(cursor, 3);
            assertTrue(page.items().size() <= 3);
            page.items().forEach(e -> seen.add(e.uri().toString()));
            cursor = page.nextCursor();
        } while (cursor != null && ++pages < 20);
        assertEquals(List.of("db://records/patients.csv", "db://records/patients/1", "db://records/patients/2",
                "db://records/patients/3", "db://records/patients/4", "db://records/patients/5", "db://records/patients/6",
                "db://records/patients/7"), seen);
        assertThrows(InvalidCursorException.class, () -> p.list("bogus", 3));
    }

    @Test
    void listingPagesByKeySoARowRemovedBeforeTheCursorSkipsNothing() throws Exception {
        try (var c = java.sql.DriverManager.getConnection(ContentDatabase.url(), "postgres", ""); var s = c.createStatement()) {
            s.execute("DROP TABLE IF EXISTS listed");
            s.execute("CREATE TABLE listed (id integer PRIMARY KEY)");
            s.execute("INSERT INTO listed SELECT generate_series(10, 19)");
        }
        var q = new HashMap<String, String>();
        q.put("queries.listed.template", "db://records/listed/{id}");
        q.put("queries.listed.sql", "SELECT id FROM listed WHERE id = ?");
        q.put("queries.listed.types", "integer");
        q.put("queries.listed.list-sql", "SELECT id FROM listed ORDER BY id");
        var p = provider(q);
        var first = p.list(null, 3);
        assertEquals(List.of("db://records/listed/10", "db://records/listed/11", "db://records/listed/12"),
                first.items().stream().map(e -> e.uri().toString()).toList());
        try (var c = java.sql.DriverManager.getConnection(ContentDatabase.url(), "postgres", ""); var s = c.createStatement()) {
            s.execute("DELETE FROM listed WHERE id = 10");
        }
        // Paged by offset, the next page would start at the fourth row left: 14, and 13 would never be listed.
        var second = p.list(first.nextCursor(), 3);
        assertEquals(List.of("db://records/listed/13", "db://records/listed/14", "db://records/listed/15"),
                second.items().stream().map(e -> e.uri().toString()).toList());
    }

    @Test
    void templatesAreOfferedAndExpandToReadableUris() throws Exception {
        var p = provider(standardQueries());
        var templates = p.templates().stream().map(t -> t.uriTemplate()).toList();
        assertTrue(templates.contains("db://records/patients/{id}"));
        assertTrue(templates.contains("db://records/wards/{ward}/patients.csv"));
        assertFalse(templates.contains("db://records/patients.csv"), "a fixed resource is listed, not templated");
        String u = UriTemplate.parse("db://records/by-name/{name}").expand(Map.of("name", "Grace Hopper"));
        assertEquals("db://records/by-name/Grace%20Hopper", u);
        assertEquals(3, json(p.read(uri(u))).get("id").intValue());
    }

    @Test
    void absentRowsAndUnmatchedUrisAreNotFound() {
        var p = provider(standardQueries());
        for (String u : List.of("db://records/patients/99", "db://records/patients/1/2", "db://records/nothing",
                "db://records/by-name/Nobody", "db://records/patients/01x")) {
            assertThrows(ResourceNotFoundException.class, () -> p.read(uri(u)), u);
        }
    }

    /**
     * One row answers to one URI: other spellings of the same key are not found, so a rule naming
     * {@code db://records/patients/1} holds for every way of asking for that row.
     */
    @Test
    void aRowAnswersOnlyToItsKeysOneSpelling() throws Exception {
        var p = provider(standardQueries());
        assertEquals("Ada Lovelace", json(p.read(uri("db://records/patients/1"))).path("name").asText());
        for (String u : List.of("db://records/patients/01", "db://records/patients/+1", "db://records/patients/0001",
                "db://records/patients/1.0", "db://records/patients/1E0", "db://records/patients/-0")) {
            assertThrows(ResourceNotFoundException.class, () -> p.read(uri(u)), u);
        }
        assertEquals(-5, ParameterType.INTEGER.convert("-5"));
        assertEquals(null, ParameterType.BIGINT.convert("007"));
        assertEquals(new java.math.BigDecimal("1.5"), ParameterType.NUMERIC.convert("1.5"));
        for (String numeric : List.of("1.50", "01.5", "+1.5", "15E-1", "100.0")) {
            assertEquals(null, ParameterType.NUMERIC.convert(numeric), numeric);
        }
        assertEquals(new java.math.BigDecimal("100"), ParameterType.NUMERIC.convert("100"));
        assertEquals(null, ParameterType.UUID.convert("6F9619FF-8B86-D011-B42D-00C04FC964FF"), "a UUID in lower case only");
        assertEquals(java.util.UUID.fromString("6f9619ff-8b86-d011-b42d-00c04fc964ff"),
                ParameterType.UUID.convert("6f9619ff-8b86-d011-b42d-00c04fc964ff"));
        assertEquals(null, ParameterType.DATE.convert("+2024-01-05"));
        assertEquals(java.sql.Date.valueOf("2024-01-05"), ParameterType.DATE.convert("2024-01-05"));
    }

    @Test
    void sqlLookingIdsAreBoundAsValuesAndHarmless() throws Exception {
        var p = provider(standardQueries());
        List<String> hostile = List.of(
                "1 OR 1=1", "1; DROP TABLE patients", "1' OR '1'='1", "' OR ''='", "1) OR (1=1", "1 UNION SELECT 1,2",
                "1--", "1/**/OR/**/1=1", "'; DELETE FROM patients; --", "%27%20OR%201=1", "1%00", "$$; DROP TABLE patients; $$",
                "x' UNION SELECT id, name FROM patients --", "Ada Lovelace' --", "\\'; DROP TABLE patients; --");
        for (String id : hostile) {
            for (String template : List.of("db://records/patients/{id}", "db://records/by-name/{id}",
                    "db://records/wards/{id}/patients.csv")) {
                String raw = UriTemplate.parse(template).expand(Map.of("id", id));
                CanonicalUri c;
                try {
                    c = UriCanonicalizer.canonicalize(raw);
                } catch (InvalidUriException e) {
                    continue;
                }
                try {
                    ResourceContent served = p.read(c);
                    assertTrue(template.contains("wards"), raw + " served " + text(served));
                    assertEquals("id,name,notes\r\n", text(served), raw + " must match no ward");
                } catch (ResourceNotFoundException expected) {
                    // not a patient id / name: nothing served
                }
            }
        }
        assertEquals(7, ContentDatabase.count(), "no row was deleted");
        assertEquals("Ada Lovelace", ContentDatabase.nameOf(1));
    }

    @Test
    void writesAreRefusedByTheReadOnlyTransaction() throws Exception {
        var q = new HashMap<String, String>();
        q.put("queries.rename.template", "db://records/rename/{id}");
        q.put("queries.rename.sql", "UPDATE patients SET name = 'changed' WHERE id = ? RETURNING id, name");
        q.put("queries.rename.types", "integer");
        q.put("queries.sneaky.template", "db://records/sneaky/{id}");
        q.put("queries.sneaky.sql", "WITH d AS (DELETE FROM patients WHERE id = ? RETURNING id) SELECT id FROM d");
        q.put("queries.sneaky.types", "integer");
        var p = provider(q);
        var e = assertThrows(IllegalStateException.class, () -> p.read(uri("db://records/rename/1")));
        assertTrue(e.getMessage().contains("read-only transaction"), e.getMessage());
        assertThrows(IllegalStateException.class, () -> p.read(uri("db://records/sneaky/2")));
        assertEquals("Ada Lovelace", ContentDatabase.nameOf(1));
        assertEquals(7, ContentDatabase.count());
    }

    /**
     * A mount on a datasource the server shares (sessions, subscriptions, the readiness check) holds at most its share
     * of it: past it the mount is busy, as a full bulkhead (not a failure its circuit breaker counts), and the pool's
     * other connections stay free for the rest of the server.
     */
    @Test
    void aMountOnASharedDatasourceHoldsAtMostItsShareOfIt() throws Exception {
        var q = new HashMap<String, String>();
        q.put("queries.slow.template", "db://records/slow/{id}");
        q.put("queries.slow.sql", "SELECT pg_sleep(1.5), ? AS id");
        var shared = new org.postgresql.ds.PGSimpleDataSource();
        shared.setURL(ContentDatabase.url());
        shared.setUser("postgres");
        var p = new DatabaseProvider(new Mount("records", "database", uri("db://records/"), "db://records/", q), shared, 1, null);
        var first = java.util.concurrent.CompletableFuture.supplyAsync(() -> p.read(uri("db://records/slow/1")));
        try (var c = java.sql.DriverManager.getConnection(ContentDatabase.url(), "postgres", "");
                var ps = c.prepareStatement("SELECT count(*) FROM pg_stat_activity WHERE state = 'active'"
                        + " AND query LIKE 'SELECT pg_sleep(1.5)%'")) {
            dev.quaestor.support.Wait.until("the first read holds its connection", java.time.Duration.ofSeconds(5), () -> {
                try (var rs = ps.executeQuery()) {
                    return rs.next() && rs.getInt(1) == 1;
                }
            });
        }
        assertThrows(org.eclipse.microprofile.faulttolerance.exceptions.BulkheadException.class,
                () -> p.read(uri("db://records/slow/2")), "the mount's one connection is taken");
        assertTrue(first.get(10, java.util.concurrent.TimeUnit.SECONDS).bytes().length > 0);
        assertTrue(p.read(uri("db://records/slow/3")).bytes().length > 0, "its connection is its own again");
    }

    @Test
    void longQueriesStopAtTheStatementTimeout() {
        var q = new HashMap<String, String>();
        q.put("queries.slow.template", "db://records/slow/{id}");
        q.put("queries.slow.sql", "SELECT pg_sleep(5), ? AS id");
        q.put("statement-timeout", "300ms");
        var p = provider(q);
        long start = System.nanoTime();
        var e = assertThrows(ReadOnlyQueries.QueryTimeoutException.class, () -> p.read(uri("db://records/slow/1")));
        assertTrue((System.nanoTime() - start) / 1_000_000 < 3000, "stopped well before the query's 5 s");
        assertTrue(e.getMessage().contains("300 ms"), e.getMessage());
        // The pooled connection is usable again afterwards and is not left read-only for others.
        var again = provider(standardQueries());
        assertEquals("Ada Lovelace", new String(again.read(uri("db://records/patients/1")).bytes(), StandardCharsets.UTF_8)
                .replaceAll(".*\"name\":\"([^\"]+)\".*", "$1"));
    }

    @Test
    void tooManyRowsIsAClearErrorNotATruncation() {
        var q = standardQueries();
        q.put("max-rows", "3");
        var p = provider(q);
        var e = assertThrows(RowWriter.TooManyRowsException.class, () -> p.read(uri("db://records/patients.csv")));
        assertTrue(e.getMessage().contains("max-rows=3"));
    }

    @Test
    void badDeclarationsAreRefusedNamingTheKey() {
        assertRefused(Map.of("queries.a.template", "db://records/a/{id}"), "query 'a': needs 'sql'");
        assertRefused(Map.of("queries.a.template", "db://records/a/{id}", "queries.a.sql", "SELECT 1"),
                "sql has 0 '?' but 1 parameter(s) [id] are bound");
        assertRefused(Map.of("queries.a.template", "db://other/a/{id}", "queries.a.sql", "SELECT ?"), "is not below db://records/");
        assertRefused(Map.of("queries.a.template", "db://records/a/{id,x}", "queries.a.sql", "SELECT ?"), "level 1-2 only");
        assertRefused(Map.of("queries.a.template", "db://records/a/{id}", "queries.a.sql", "SELECT ?",
                "queries.a.types", "money"), "unknown parameter type 'money'");
        assertRefused(Map.of("queries.a.template", "db://records/a/{id}", "queries.a.sql", "SELECT ?",
                "queries.a.sqll", "x"), "unknown key 'sqll'");
        assertRefused(Map.of("queries.a.template", "db://records/a/{id}", "queries.a.sql", "SELECT ?",
                "queries.a.format", "csv"), "format csv is for kind list");
        assertRefused(Map.of(), "declares no queries");
    }

    void assertRefused(Map<String, String> options, String message) {
        try {
            provider(options);
            fail("accepted " + options);
        } catch (IllegalArgumentException e) {
            assertTrue(e.getMessage().contains(message), e.getMessage());
        }
    }
}
