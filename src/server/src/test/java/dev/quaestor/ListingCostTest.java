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
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
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
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            return Map.of("quaestor.mounts.big.provider", "filesystem", "quaestor.mounts.big.uri", "file:///big/",
                    "quaestor.mounts.big.root", ROOT.toString());
        }
    }

    private static String decoded(String cursor) {
        return new String(Base64.getUrlDecoder().decode(cursor), StandardCharsets.UTF_8);
    }

    @Test
    void aListingByACallerWhoMaySeeNothingExaminesOnePageNotTheMount() {
        String token = TestIssuer.sign(TestIssuer.claims("nobody-at-all"));
        String session = Rpc.initialize(token, "2025-06-18");
        String cursor = null;
        int examined = 0;
        for (int call = 1; call <= 3; call++) {
            String params = cursor == null ? "{}" : "{\"cursor\":\"" + cursor + "\"}";
            var body = Rpc.call(token, session, "{\"jsonrpc\":\"2.0\",\"id\":" + call
                    + ",\"method\":\"resources/list\",\"params\":" + params + "}").statusCode(200).extract().jsonPath();
            assertEquals(0, body.getList("result.resources").size(), "nothing of the mounts is granted");
            cursor = body.getString("result.nextCursor");
            // The table's cursor: v1, the mount, the provider's cursor (f1 and the last path looked at).
            String[] table = decoded(cursor).split("\u0000", -1);
            assertEquals("big", table[1], "still inside the first mount after " + call + " calls");
            String last = decoded(table[2]).split("\u0000")[1];
            int position = Integer.parseInt(last.substring(last.lastIndexOf('f') + 1, last.lastIndexOf('.'))) + 1;
            assertTrue(position - examined <= 50, "call " + call + " looked at " + (position - examined)
                    + " entries; one call may look at 50 (quaestor.list.scan-budget)");
            examined = position;
        }
    }
}
