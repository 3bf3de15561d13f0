package dev.quaestor.console;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.quaestor.support.AuditRow;
import dev.quaestor.support.Browser;
import io.quarkus.narayana.jta.QuarkusTransaction;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.WebDriver;

/**
 * Saving a search, and choosing a time zone, check what they are given before anything is recorded as done: a search
 * without a name, or with a query that is not a search page's query string, and a time zone that is not one, are
 * answered 400, on record as {@code invalid} (DENY) and never as {@code ok}, and nothing is kept; a good one is
 * saved, on record as {@code ok}, and the search is shown again.
 */
@QuarkusTest
class SavedSearchSaveTest {

    private static WebDriver browser;

    @BeforeAll
    static void startBrowser() throws Exception {
        browser = Browser.start();
    }

    @AfterAll
    static void stopBrowser() {
        if (browser != null) {
            browser.quit();
        }
    }

    private static HttpResponse<String> post(String base, String path, String csrf, String... fields) throws Exception {
        var form = new StringBuilder("csrf=" + URLEncoder.encode(csrf, StandardCharsets.UTF_8));
        for (int i = 0; i < fields.length; i += 2) {
            form.append('&').append(fields[i]).append('=').append(URLEncoder.encode(fields[i + 1], StandardCharsets.UTF_8));
        }
        String cookies = browser.manage().getCookies().stream().map(c -> c.getName() + "=" + c.getValue()).collect(Collectors.joining("; "));
        return HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(base + path)).header("Cookie", cookies)
                .header("Content-Type", "application/x-www-form-urlencoded").POST(HttpRequest.BodyPublishers.ofString(form.toString())).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private static List<String> recorded(String method, String detail) {
        return AuditRow.list("subject = 'auditor' AND method = ? AND detail = ?", method, detail).stream()
                .map(r -> r.decision + "/" + r.outcome).toList();
    }

    private static long savedWithQuery(String query) {
        return QuarkusTransaction.requiringNew().call(() -> SavedSearch.count("query", query));
    }

    @Test
    void aSearchOrTimeZoneRefusedIsNeverOnRecordAsDoneAndNothingIsKept() throws Exception {
        String base = "http://127.0.0.1:" + RestAssured.port;
        Browser.signIn(browser, base + "/console/search", "auditor");
        String csrf = browser.findElement(By.cssSelector("form[action='/console/logout'] input[name=csrf]")).getAttribute("value");
        String marker = "marker-" + System.nanoTime();

        String query = "subject=" + marker;
        var unnamed = post(base, "/console/searches", csrf, "name", " ", "query", query);
        assertEquals(400, unnamed.statusCode(), unnamed.body());
        assertTrue(unnamed.body().contains("a name (up to 128 characters) is required"), unnamed.body());
        assertEquals(List.of("DENY/invalid"), recorded("console/search/save", "name=  query=" + query));
        assertEquals(0, savedWithQuery(query));

        String spaced = "subject=" + marker + " x";
        var crafted = post(base, "/console/searches", csrf, "name", "spaced", "query", spaced);
        assertEquals(400, crafted.statusCode(), crafted.body());
        assertTrue(crafted.body().contains("Not saved: the query is not a search"), crafted.body());
        assertEquals(List.of("DENY/invalid"), recorded("console/search/save", "name=spaced query=" + spaced));
        assertEquals(0, savedWithQuery(spaced));

        // A query the search page would refuse (a misspelt filter, a kind no record has, a date it cannot read, a
        // filter given twice) is not kept to fail when opened: refused in the page's words, on record, nothing stored.
        for (String[] bad : List.of(new String[] {"subjet=" + marker, "subjet&quot; is not a parameter it takes"},
                new String[] {"subject=" + marker + "&kind=NOPE", "kind&#39; is not one of the values it takes"},
                new String[] {"subject=" + marker + "&from=someday", "from&#39; is not a date or time"},
                new String[] {"subject=" + marker + "&subject=other", "is given 2 times"},
                // The page reads ';' as '&': the same refusals hold across it.
                new String[] {"subject=" + marker + ";subject=other", "is given 2 times"},
                new String[] {"subject=" + marker + ";subjet=other", "subjet&quot; is not a parameter it takes"})) {
            var refused = post(base, "/console/searches", csrf, "name", "refused", "query", bad[0]);
            assertEquals(400, refused.statusCode(), bad[0] + ": " + refused.body());
            assertTrue(refused.body().contains("Not saved: the search page would refuse this query"), refused.body());
            assertTrue(refused.body().contains(bad[1]), refused.body());
            assertEquals(List.of("DENY/invalid"), recorded("console/search/save", "name=refused query=" + bad[0]));
            assertEquals(0, savedWithQuery(bad[0]));
        }
        // A field given twice, of which a handler would read the first and drop the other unseen: refused, on record.
        String twice = "subject=" + marker + "&kind=POLICY";
        var repeated = post(base, "/console/searches", csrf, "name", "first", "query", twice, "name", "second");
        assertEquals(400, repeated.statusCode(), repeated.body());
        assertTrue(repeated.body().contains("its field &#39;name&#39; is given 2 times"), repeated.body());
        assertEquals(List.of("DENY/invalid"), recorded("console/search/save", "form field 'name' given 2 times"));
        assertEquals(0, savedWithQuery(twice));

        // One it takes, with the display settings and a time zone of its own, is kept.
        String good = "subject=" + marker + "&kind=DECISION&order=oldest&size=50&tz=Europe%2FParis&from=2026-01-01";
        var keptGood = post(base, "/console/searches", csrf, "name", "good " + marker, "query", good);
        assertEquals(303, keptGood.statusCode(), keptGood.body());
        assertEquals(1, savedWithQuery(good));

        // A NUL in the name or the query, which the database cannot keep: refused in words and on record, never a 500.
        for (String[] nul : List.of(new String[] {"nul\0" + marker, query}, new String[] {"nul " + marker, query + "\0"})) {
            var refused = post(base, "/console/searches", csrf, "name", nul[0], "query", nul[1]);
            assertEquals(400, refused.statusCode(), refused.body());
            assertTrue(refused.body().contains("holds a NUL character (%00)"), refused.body());
        }
        assertEquals(List.of("DENY/invalid", "DENY/invalid"), AuditRow.list("subject = 'auditor' AND method = ? AND detail LIKE ?",
                "console/search/save", "name=nul%" + marker + "%").stream().map(r -> r.decision + "/" + r.outcome).toList());
        assertEquals(0, savedWithQuery(query));

        var zone = post(base, "/console/time-zone", csrf, "zone", "Not/" + marker, "query", query);
        assertEquals(400, zone.statusCode(), zone.body());
        assertEquals(List.of("DENY/invalid"), recorded("console/time-zone", "zone=Not/" + marker));

        var kept = post(base, "/console/searches", csrf, "name", "kept " + marker, "query", query);
        assertEquals(303, kept.statusCode(), kept.body());
        String location = kept.headers().firstValue("Location").orElseThrow();
        assertTrue(location.endsWith("/console/search?" + query), location);
        assertEquals(List.of("ALLOW/ok"), recorded("console/search/save", "name=kept " + marker + " query=" + query));
        assertEquals(1, savedWithQuery(query));
        browser.manage().deleteAllCookies();
    }

    private static void keep(String owner, String name, boolean shared) {
        var s = new SavedSearch();
        s.owner = owner;
        s.name = name;
        s.query = "subject=" + name;
        s.shared = shared;
        s.createdAt = java.time.Instant.now();
        s.persist();
    }

    @Test
    void aReviewerKeepsAtMostAHundredSearchesAndTheSearchPageListsABoundedFew() throws Exception {
        String base = "http://127.0.0.1:" + RestAssured.port;
        String marker = "cap-" + System.nanoTime();
        String sharer = "sharer-" + marker;
        // auditor3 at the cap; someone else sharing more than a page lists.
        QuarkusTransaction.requiringNew().run(() -> {
            for (long i = SavedSearch.keptBy("auditor3"); i < SavedSearch.MAX_PER_OWNER; i++) {
                keep("auditor3", marker + "-own-" + i, false);
            }
            for (int i = 0; i < SavedSearch.MAX_SHARED_SHOWN + 50; i++) {
                keep(sharer, marker + "-shared-" + i, true);
            }
        });
        try {
            Browser.signIn(browser, base + "/console/search", "auditor3");
            String csrf = browser.findElement(By.cssSelector("form[action='/console/logout'] input[name=csrf]")).getAttribute("value");
            String query = "subject=" + marker;
            var over = post(base, "/console/searches", csrf, "name", "one more", "query", query);
            assertEquals(409, over.statusCode(), over.body());
            assertTrue(over.body().contains("you keep 100 saved searches, the most one person keeps; delete one first"), over.body());
            assertEquals(List.of("DENY/invalid"), AuditRow.list("subject = 'auditor3' AND method = 'console/search/save' AND detail = ?",
                    "name=one more query=" + query).stream().map(r -> r.decision + "/" + r.outcome).toList());
            assertEquals(0, savedWithQuery(query));
            assertEquals(SavedSearch.MAX_PER_OWNER, QuarkusTransaction.requiringNew().call(() -> SavedSearch.keptBy("auditor3")));

            // The page lists auditor3's own and the newest of what others share: not all 150 of the sharer's.
            var seen = QuarkusTransaction.requiringNew().call(() -> SavedSearch.visibleTo("auditor3"));
            long shared = seen.stream().filter(x -> x.owner.equals(sharer)).count();
            assertEquals(SavedSearch.MAX_SHARED_SHOWN, shared, "others' shared searches listed");
            assertTrue(seen.stream().anyMatch(x -> x.name.equals(marker + "-shared-149")), "the newest shared search is listed");
            assertTrue(seen.stream().noneMatch(x -> x.name.equals(marker + "-shared-0")), "the oldest is past the page");
            assertEquals(SavedSearch.MAX_PER_OWNER, seen.stream().filter(x -> x.owner.equals("auditor3")).count());
            browser.get(base + "/console/search");
            assertEquals(seen.size(), browser.findElements(By.cssSelector("#saved tbody tr")).size(), "the page shows what was listed");
        } finally {
            QuarkusTransaction.requiringNew().run(() -> SavedSearch.delete("name like ?1", marker + "-%"));
            browser.manage().deleteAllCookies();
        }
    }
}
