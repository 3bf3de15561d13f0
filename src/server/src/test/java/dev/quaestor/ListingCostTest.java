package dev.quaestor;

import dev.quaestor.support.Rpc;
import dev.quaestor.support.TestIssuer;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.Map;
import dev.quaestor.pipeline.ListingCursors;
import java.util.Optional;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A listing costs one page, not the mount: a caller who may see none of a 2,000-file mount gets an empty page
 * whose cursor lies at most one scan budget (50 entries) further on, and every call pays its rate-limit token.
 */
@QuarkusTest
@TestProfile(ListingCostTest.BigMount.class)
class ListingCostTest {

    public static class BigMount implements QuarkusTestProfile {
        static final Path ROOT = Path.of("target", "listing-cost", "big");

        @Override
        public Map<String, String> getConfigOverrides() {
            try {
                for (int i = 0; i < 2_000; i++) {
                    Path dir = Files.createDirectories(ROOT.resolve(String.format("d%02d", i / 100)));
                    Path f = dir.resolve(String.format("f%05d.txt", i));
                    if (!Files.exists(f)) {
                        Files.writeString(f, "x");
                    }
                }
                // One folder of more names than a completion looks at (listed last, after d00 to d19).
                Path many = Files.createDirectories(ROOT.resolve("z-many"));
                for (int i = 0; i < 1_100; i++) {
                    Path f = many.resolve(String.format("%05d.txt", i));
                    if (!Files.exists(f)) {
                        Files.writeString(f, "x");
                    }
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            return Map.of("quaestor.mounts.big.provider", "filesystem", "quaestor.mounts.big.uri", "file:///big/",
                    "quaestor.mounts.big.root", ROOT.toString(), "quaestor.list.cursor-secret", SECRET);
        }
    }

    static final String SECRET = "listing-cost-test-secret";
    private static final String SUBJECT = "nobody-at-all";

    private static String decoded(String cursor) {
        return new String(Base64.getUrlDecoder().decode(cursor), StandardCharsets.UTF_8);
    }

    @Test
    void aListingByACallerWhoMaySeeNothingExaminesOnePageNotTheMount() {
        String token = TestIssuer.sign(TestIssuer.claims(SUBJECT));
        String session = Rpc.initialize(token, "2025-06-18");
        String cursor = null;
        int examined = 0;
        for (int call = 1; call <= 3; call++) {
            String params = cursor == null ? "{}" : "{\"cursor\":\"" + cursor + "\"}";
            var body = Rpc.call(token, session, "{\"jsonrpc\":\"2.0\",\"id\":" + call
                    + ",\"method\":\"resources/list\",\"params\":" + params + "}").statusCode(200).extract().jsonPath();
            assertEquals(0, body.getList("result.resources").size(), "nothing of the mounts is granted");
            cursor = body.getString("result.nextCursor");
            // Sealed as given (nothing of the mount in it); opened with the secret, the table's cursor: v1, the mount,
            // the provider's cursor (f1 and the last path looked at).
            assertFalse(decoded(cursor).contains("big"), "the cursor given out names nothing");
            String[] table = decoded(new ListingCursors(Optional.of(SECRET)).open(cursor, SUBJECT)).split("\u0000", -1);
            assertEquals("big", table[1], "still inside the first mount after " + call + " calls");
            String last = decoded(table[2]).split("\u0000")[1];
            int position = Integer.parseInt(last.substring(last.lastIndexOf('f') + 1, last.lastIndexOf('.'))) + 1;
            assertTrue(position - examined <= 50, "call " + call + " looked at " + (position - examined)
                    + " entries; one call may look at 50 (quaestor.list.scan-budget)");
            examined = position;
        }
    }

    @Test
    void aCursorIsNeitherForgedNorCarriedToAnotherSubject() {
        String token = TestIssuer.sign(TestIssuer.claims(SUBJECT));
        String session = Rpc.initialize(token, "2025-06-18");
        // What the table's cursor looks like unsealed: past every file of the mount but the last.
        String forged = Base64.getUrlEncoder().withoutPadding().encodeToString(("v1\u0000big\u0000" + Base64.getUrlEncoder()
                .withoutPadding().encodeToString("f1\u0000d19/f01998.txt".getBytes(StandardCharsets.UTF_8))).getBytes(StandardCharsets.UTF_8));
        Rpc.call(token, session, list(1, forged)).statusCode(200).body("error.code", org.hamcrest.Matchers.equalTo(-32602));

        String given = Rpc.call(token, session, list(2, null)).statusCode(200).extract().jsonPath().getString("result.nextCursor");
        Rpc.call(token, session, list(3, given)).statusCode(200).body("error", org.hamcrest.Matchers.nullValue());
        String other = TestIssuer.sign(TestIssuer.claims("someone-else"));
        String theirs = Rpc.initialize(other, "2025-06-18");
        Rpc.call(other, theirs, list(4, given)).statusCode(200).body("error.code", org.hamcrest.Matchers.equalTo(-32602));
    }

    /**
     * A completion says nothing of a folder the caller may read nothing in: the same empty answer, hasMore false,
     * whether it holds thousands of names or does not exist (hasMore from the names looked at would count them).
     */
    @Test
    void aCompletionInAFolderTheCallerMayNotReadSaysNothingOfItsSize() {
        String token = TestIssuer.sign(TestIssuer.claims(SUBJECT));
        String session = Rpc.initialize(token, "2025-06-18");
        for (String typed : new String[] {"z-many/", "z-many/0", "no-such-folder/", ""}) {
            String requestId = Rpc.call(token, session, "{\"jsonrpc\":\"2.0\",\"id\":9,\"method\":\"completion/complete\",\"params\":{\"ref\":"
                    + "{\"type\":\"ref/resource\",\"uri\":\"file:///big/{+path}\"},\"argument\":{\"name\":\"path\",\"value\":\""
                    + typed + "\"}}}").statusCode(200)
                    .body("result.completion.values", org.hamcrest.Matchers.empty())
                    .body("result.completion.hasMore", org.hamcrest.Matchers.equalTo(false)).extract().header("X-Request-Id");
            // Recorded as every listing is: none listed, and the SHA-256 of nothing.
            var outcome = dev.quaestor.support.AuditRow.first("request_id = ? and kind = 'OUTCOME'", requestId);
            assertEquals(0, outcome.items, typed);
            assertEquals("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855", outcome.contentSha256, typed);
        }
    }

    private static String list(int id, String cursor) {
        String params = cursor == null ? "{}" : "{\"cursor\":\"" + cursor + "\"}";
        return "{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"method\":\"resources/list\",\"params\":" + params + "}";
    }
}
