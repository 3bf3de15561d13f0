package dev.quaestor;

import dev.quaestor.support.Rpc;
import dev.quaestor.support.TestIssuer;
import io.quarkus.test.junit.QuarkusTest;
import java.io.StringReader;
import java.time.Instant;
import java.util.List;
import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVRecord;
import org.junit.jupiter.api.Test;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * {@code /audit/export?format=csv}: a value a caller chose (here the URI of a refused read) that a spreadsheet would
 * compute, a leading tab or carriage return included, is exported as text behind a leading quote.
 */
@QuarkusTest
class AuditCsvExportTest {

    @Test
    void aFormulaACallerSentIsExportedAsTextTabAndCarriageReturnIncluded() throws Exception {
        Instant from = Instant.now().minusSeconds(1);
        String alice = TestIssuer.tokenFor("alice");
        String session = Rpc.initialize(alice, "2025-06-18");
        var sent = List.of("\t=1+1", "\r=1+1", "=HYPERLINK(\"http://evil.example\")", "@SUM(A1)");
        var requests = new java.util.ArrayList<String>();
        for (String uri : sent) {
            String json = uri.replace("\\", "\\\\").replace("\"", "\\\"").replace("\t", "\\t").replace("\r", "\\r");
            requests.add(Rpc.call(alice, session, "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"resources/read\",\"params\":{\"uri\":\""
                    + json + "\"}}").statusCode(200).body("error.code", equalTo(-32602)).extract().header("X-Request-Id"));
        }
        String csv = given().header("Authorization", "Bearer " + TestIssuer.tokenFor("auditor"))
                .get("/audit/export?format=csv&from=" + from).then().statusCode(200).contentType("text/csv").extract().asString();
        List<CSVRecord> rows = CSVFormat.RFC4180.builder().setHeader().setSkipHeaderRecord(true).get().parse(new StringReader(csv))
                .getRecords();
        for (int i = 0; i < sent.size(); i++) {
            String request = requests.get(i);
            CSVRecord row = rows.stream().filter(r -> r.get("request").equals(request)).findFirst().orElseThrow();
            assertEquals("'" + sent.get(i), row.get("uri"), csv);
            assertEquals("DECISION", row.get("kind"));
        }
    }
}
