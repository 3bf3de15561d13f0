package dev.quaestor.identity;

import java.util.logging.Filter;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jboss.logmanager.ExtLogRecord;

/**
 * Keeps tokens out of the log. When an ID token does not verify, Quarkus's code flow logs jose4j's reason at ERROR,
 * and that reason can hold the whole token (a signature that does not hold) or its claims (a claim that does not):
 * who signed in, their roles, their sign-in's id, sent to whatever collects the log. Such a message is logged with
 * every token in it replaced by {@value #TOKEN} and every claim set by {@value #CLAIMS}; the rest of the reason stays.
 *
 * <p>Part of {@link IdentityLogFilter}, the console handler's filter. Only records from the identity libraries, and
 * any record at WARNING or above, are looked at: nothing on a request's normal path logs there.
 */
final class TokenRedaction implements Filter {

    static final String TOKEN = "⟨token redacted⟩";
    static final String CLAIMS = "claims->⟨redacted⟩";
    /** A JWS or JWE in compact form: its header is base64url JSON, so it starts with "eyJ". */
    private static final Pattern COMPACT = Pattern.compile("eyJ[A-Za-z0-9_-]*(?:\\.[A-Za-z0-9_-]*){2,4}");
    /** jose4j's "JWT (claims->{…}) rejected": the claim set's JSON, up to the parenthesis that closes it. */
    private static final Pattern CLAIM_SET = Pattern.compile("claims->\\{.*?\\}\\)(?= rejected)|claims->\\{.*\\}", Pattern.DOTALL);
    private static final String[] IDENTITY_LOGGERS = {"io.quarkus.oidc", "io.quarkus.security", "io.quarkus.vertx.http.runtime.security",
            "io.smallrye.jwt", "org.jose4j"};

    @Override
    public boolean isLoggable(LogRecord record) {
        if (record.getLevel().intValue() < Level.WARNING.intValue() && !fromIdentity(record.getLoggerName())) {
            return true;
        }
        String message = record instanceof ExtLogRecord ext ? ext.getFormattedMessage() : record.getMessage();
        if (message == null || (!message.contains("eyJ") && !message.contains("claims->"))) {
            return true;
        }
        String redacted = redact(message);
        if (record instanceof ExtLogRecord ext) {
            ext.setMessage(redacted, ExtLogRecord.FormatStyle.NO_FORMAT);
        } else {
            record.setMessage(redacted);
        }
        record.setParameters(null);
        return true;
    }

    static String redact(String message) {
        String out = COMPACT.matcher(message).replaceAll(TOKEN);
        return CLAIM_SET.matcher(out).replaceAll(m -> Matcher.quoteReplacement(m.group().endsWith(")") ? CLAIMS + ")" : CLAIMS));
    }

    static boolean fromIdentity(String logger) {
        if (logger != null) {
            for (String prefix : IDENTITY_LOGGERS) {
                if (logger.startsWith(prefix)) {
                    return true;
                }
            }
        }
        return false;
    }
}
