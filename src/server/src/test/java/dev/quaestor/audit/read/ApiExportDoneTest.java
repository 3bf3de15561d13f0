package dev.quaestor.audit.read;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.quaestor.support.AuditRow;
import dev.quaestor.support.TestIssuer;
import dev.quaestor.support.Wait;
import io.quarkus.test.junit.QuarkusTest;
import java.security.MessageDigest;
import java.time.Duration;
import java.time.Instant;
import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * An export from the auditor API written whole is on record twice under its request id: let in ({@code audit/export},
 * {@code ok}), then {@code audit/export/done} with the file's size and SHA-256, so the file an auditor keeps is tied to
 * the log, as a console export is.
 */
@QuarkusTest
class ApiExportDoneTest {

    @Test
    void anExportWrittenWholeIsOnRecordWithItsFilesSizeAndSha256() throws Exception {
        String auditor = TestIssuer.tokenFor("auditor");
        for (String format : List.of("jsonl", "csv")) {
            var answer = given().header("Authorization", "Bearer " + auditor)
                    .get("/audit/export?format=" + format + "&from=" + Instant.now().minusSeconds(3600)).then().statusCode(200)
                    .extract();
            byte[] file = answer.asByteArray();
            String requestId = answer.header("X-Request-Id");
            Wait.until("the export's end on record", Duration.ofSeconds(5),
                    () -> AuditRow.list("request_id = ? order by id", requestId).size() >= 2);
            List<AuditRow> rows = AuditRow.list("request_id = ? order by id", requestId);
            assertEquals(List.of("audit/export/ok", "audit/export/done/ok"), rows.stream().map(r -> r.method + "/" + r.outcome)
                    .toList(), format);
            AuditRow done = rows.get(1);
            assertEquals(file.length, done.bytes, format);
            assertEquals(HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(file)), done.contentSha256, format);
            assertEquals(rows.get(0).subject, done.subject);
        }
    }
}
