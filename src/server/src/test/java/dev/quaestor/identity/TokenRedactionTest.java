package dev.quaestor.identity;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.logging.Level;
import org.jboss.logmanager.ExtLogRecord;
import org.junit.jupiter.api.Test;

/**
 * What Quarkus's code flow logs when an ID token does not verify reaches the log without the token or its claims,
 * with the rest of its reason; other records pass untouched.
 */
class TokenRedactionTest {

    private static final String TOKEN = "eyJhbGciOiJSUzI1NiIsImtpZCI6InRlc3Qta2V5In0.eyJzdWIiOiJhdWRpdG9yIn0.fqP45nYd0VM7aHml-_x";
    private static final String CLAIMS = "{\"sub\":\"auditor\",\"realm_access\":{\"roles\":[\"quaestor-auditor\"]},\"exp\":1796294698}";

    private static ExtLogRecord logged(Level level, String logger, String format, Object... params) {
        var r = new ExtLogRecord(level, format, ExtLogRecord.FormatStyle.PRINTF, TokenRedactionTest.class.getName());
        r.setLoggerName(logger);
        r.setParameters(params);
        return r;
    }

    @Test
    void aSignatureThatDoesNotHoldIsLoggedWithoutItsToken() {
        var r = logged(Level.SEVERE, "io.quarkus.oidc.runtime.CodeAuthenticationMechanism", "ID token verification has failed: %s",
                "JWT rejected due to invalid signature. Additional details: [[9] Invalid JWS Signature: JsonWebSignature"
                        + "{\"alg\":\"RS256\",\"kid\":\"test-key\"}->" + TOKEN + "]");
        assertTrue(new TokenRedaction().isLoggable(r));
        assertEquals("ID token verification has failed: JWT rejected due to invalid signature. Additional details: [[9] Invalid"
                + " JWS Signature: JsonWebSignature{\"alg\":\"RS256\",\"kid\":\"test-key\"}->⟨token redacted⟩]", r.getFormattedMessage());
    }

    @Test
    void aClaimThatDoesNotHoldIsLoggedWithoutTheClaimSet() {
        var r = logged(Level.SEVERE, "io.quarkus.oidc.runtime.CodeAuthenticationMechanism", "ID token verification has failed: %s",
                "JWT (claims->" + CLAIMS + ") rejected due to invalid claims or other invalid content. Additional details: [[1]"
                        + " The JWT is no longer valid]");
        new TokenRedaction().isLoggable(r);
        String message = r.getFormattedMessage();
        assertEquals("ID token verification has failed: JWT (claims->⟨redacted⟩) rejected due to invalid claims or other invalid"
                + " content. Additional details: [[1] The JWT is no longer valid]", message);
        assertFalse(message.contains("auditor"), message);
    }

    @Test
    void aTokenAnyoneLogsAtWarningIsRedactedAndOrdinaryRecordsPassUntouched() {
        var warned = logged(Level.WARNING, "dev.quaestor.anything", "refused %s", TOKEN);
        new TokenRedaction().isLoggable(warned);
        assertEquals("refused ⟨token redacted⟩", warned.getFormattedMessage());

        Object[] params = {"file:///docs/eyJ-not-a-token.md"};
        var info = logged(Level.INFO, "dev.quaestor.pipeline", "read %s", params);
        assertTrue(new TokenRedaction().isLoggable(info));
        assertSame(params, info.getParameters(), "an INFO record outside the identity libraries is not looked at");
        assertEquals("read file:///docs/eyJ-not-a-token.md", info.getFormattedMessage());
    }
}
