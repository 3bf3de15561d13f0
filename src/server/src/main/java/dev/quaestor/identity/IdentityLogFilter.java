package dev.quaestor.identity;

import io.quarkus.logging.LoggingFilter;
import java.util.logging.Filter;
import java.util.logging.Level;
import java.util.logging.LogRecord;

/**
 * What the identity libraries may put in the log: within {@link IdentityLogBudget} for each of their loggers at
 * WARNING and above, and never a token or a claim set ({@link TokenRedaction}, which also looks at anyone's records at
 * WARNING and above). Set on the console handler ({@code quarkus.log.console.filter}); a handler takes one filter.
 */
@LoggingFilter(name = "identity-log")
public final class IdentityLogFilter implements Filter {

    private final TokenRedaction redaction = new TokenRedaction();

    @Override
    public boolean isLoggable(LogRecord record) {
        return isLoggable(record, IdentityLogBudget.SHARED);
    }

    boolean isLoggable(LogRecord record, IdentityLogBudget budget) {
        String logger = record.getLoggerName();
        if (record.getLevel().intValue() >= Level.WARNING.intValue() && TokenRedaction.fromIdentity(logger) && !budget.admit(logger)) {
            return false;
        }
        return redaction.isLoggable(record);
    }
}
