package dev.quaestor.identity;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import org.jboss.logmanager.ExtLogRecord;
import org.junit.jupiter.api.Test;

/**
 * A client replaying a console cookie whose ID token no longer verifies makes Quarkus log one ERROR per request: the
 * log takes {@value IdentityLogBudget#PER_MINUTE} a minute from each identity-library logger and counts the rest,
 * while everyone else's warnings pass, and tokens stay redacted in what is logged.
 */
class IdentityLogFilterTest {

    private static final String CODE_FLOW = "io.quarkus.oidc.runtime.CodeAuthenticationMechanism";
    private static final String TOKEN = "eyJhbGciOiJSUzI1NiIsImtpZCI6InRlc3Qta2V5In0.eyJzdWIiOiJhdWRpdG9yIn0.fqP45nYd0VM7aHml-_x";

    private static LogRecord logged(Level level, String logger, String message) {
        var r = new ExtLogRecord(level, message, ExtLogRecord.FormatStyle.NO_FORMAT, IdentityLogFilterTest.class.getName());
        r.setLoggerName(logger);
        return r;
    }

    @Test
    void eachIdentityLoggerLogsTenAMinuteAndTheRestAreCounted() {
        AtomicLong minute = new AtomicLong(1_000);
        var budget = new IdentityLogBudget(minute::get);
        var filter = new IdentityLogFilter();

        List<LogRecord> passed = new ArrayList<>();
        for (int i = 0; i < 25; i++) {
            var r = logged(Level.SEVERE, CODE_FLOW, "ID token verification has failed: JsonWebSignature->" + TOKEN);
            if (filter.isLoggable(r, budget)) {
                passed.add(r);
            }
        }
        assertEquals(IdentityLogBudget.PER_MINUTE, passed.size());
        passed.forEach(r -> assertEquals("ID token verification has failed: JsonWebSignature->" + TokenRedaction.TOKEN,
                ((ExtLogRecord) r).getFormattedMessage()));

        // Another identity logger has its own budget; our own warnings, and INFO, are never counted.
        assertTrue(filter.isLoggable(logged(Level.WARNING, "io.quarkus.oidc.runtime.OidcProvider", "keys refreshed"), budget));
        for (int i = 0; i < 50; i++) {
            assertTrue(filter.isLoggable(logged(Level.WARNING, "dev.quaestor.audit.write", "slow commit"), budget));
            assertTrue(filter.isLoggable(logged(Level.INFO, "dev.quaestor.pipeline", "read"), budget));
        }

        assertEquals(Map.of(CODE_FLOW, 15L), budget.takeNotLogged());
        assertEquals(Map.of(), budget.takeNotLogged(), "each record not logged is reported once");

        minute.incrementAndGet();
        assertTrue(filter.isLoggable(logged(Level.SEVERE, CODE_FLOW, "ID token verification has failed"), budget),
                "a new minute, a new budget");
    }

    @Test
    void theReportSaysHowManyOfWhichLoggerWereNotLogged() {
        List<String> messages = new ArrayList<>();
        Handler capture = new Handler() {
            @Override
            public void publish(LogRecord r) {
                messages.add(r.getLevel() + " " + (r instanceof ExtLogRecord ext ? ext.getFormattedMessage() : r.getMessage()));
            }

            @Override
            public void flush() {
            }

            @Override
            public void close() {
            }
        };
        var logger = java.util.logging.Logger.getLogger(IdentityLogReport.class.getName());
        logger.addHandler(capture);
        try {
            IdentityLogReport.report(Map.of(CODE_FLOW, 15L));
            IdentityLogReport.report(Map.of());
        } finally {
            logger.removeHandler(capture);
        }
        assertEquals(List.of("WARN 15 records of " + CODE_FLOW + " at WARNING or above were not logged (at most 10 a minute"
                + " are); refused sign-ins and tokens are on the audit trail"), messages);
        assertFalse(messages.get(0).contains("eyJ"));
    }
}
