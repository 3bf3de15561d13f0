package dev.quaestor.admin;

import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A query parameter of a call to the auditor API that cannot be taken as given: unknown, given twice, or a value that
 * is not one the parameter accepts. The call is answered 400 with {@link #body()} and recorded as {@code invalid}, the
 * reason in its {@code detail}; the value is quoted cut to {@value #SHOWN} characters, never whole.
 */
final class InvalidQuery extends RuntimeException {

    /** How much of a value a refusal quotes. */
    static final int SHOWN = 64;

    private final String parameter;
    private final String value;
    private final String accepted;

    private InvalidQuery(String message, String parameter, String value, String accepted) {
        super(message, null, false, false);
        this.parameter = parameter;
        this.value = value;
        this.accepted = accepted;
    }

    /** {@code value} is not one of {@code accepted} (each exactly as written: names are case-sensitive). */
    static InvalidQuery notOneOf(String parameter, String value, List<String> accepted) {
        String list = String.join(", ", accepted);
        return new InvalidQuery(parameter + " must be one of " + list + " (exactly as written); got " + quoted(value), parameter,
                shown(value), list);
    }

    /** {@code value} is not what {@code parameter} takes, said in {@code accepted} (e.g. "a whole number from 1 to 1000"). */
    static InvalidQuery notA(String parameter, String value, String accepted) {
        return new InvalidQuery(parameter + " must be " + accepted + "; got " + quoted(value), parameter, shown(value), accepted);
    }

    /** A range of times whose start, {@code from}, is after its end, {@code to}: the range ends before it starts. */
    static InvalidQuery outOfOrder(String from, String fromValue, String to, String toValue) {
        return new InvalidQuery("'" + from + "' (" + shown(fromValue) + ") is after '" + to + "' (" + shown(toValue)
                + "): the range ends before it starts; give a '" + from + "' no later than the '" + to + "', or leave one out", from,
                shown(fromValue), "a time no later than '" + to + "' (" + shown(toValue) + ")");
    }

    /** Two sizes of a log, the first larger than the second: the log only grows, so no proof leads back. */
    static InvalidQuery shrinking(String from, String fromValue, String to, String toValue) {
        return new InvalidQuery("'" + from + "' (" + shown(fromValue) + ") is larger than '" + to + "' (" + shown(toValue)
                + "): a consistency proof leads from a smaller checkpoint to a larger one", from, shown(fromValue),
                "a size no larger than '" + to + "' (" + shown(toValue) + ")");
    }

    /** A parameter the call needs, not given. */
    static InvalidQuery missing(String parameter, String accepted) {
        return new InvalidQuery(parameter + " is required: " + accepted, parameter, null, accepted);
    }

    /** {@code parameter}'s {@code value} (null if it was left out) refused for {@code why}, which is already said in words. */
    static InvalidQuery because(String why, String parameter, String value, String accepted) {
        return new InvalidQuery(why, parameter, value == null ? null : shown(value), accepted);
    }

    /** A parameter the call does not take. */
    static InvalidQuery unknown(String parameter, List<String> accepted) {
        String list = accepted.isEmpty() ? "none" : String.join(", ", accepted);
        return new InvalidQuery("unknown query parameter " + quoted(parameter) + "; this call takes: " + list, shown(parameter), null,
                list);
    }

    /** A parameter given more than once: which value is meant cannot be told. */
    static InvalidQuery repeated(String parameter) {
        return new InvalidQuery("query parameter " + quoted(parameter) + " is given more than once; give it once", shown(parameter),
                null, "one value");
    }

    /** The 400's JSON body: {@code error}, {@code parameter}, {@code value} (when one was wrong) and {@code accepted}. */
    Map<String, Object> body() {
        var body = new LinkedHashMap<String, Object>();
        body.put("error", getMessage());
        body.put("parameter", parameter);
        if (value != null) {
            body.put("value", value);
        }
        body.put("accepted", accepted);
        return body;
    }

    /** The 400 answering the call, naming {@code requestId}, the record of its refusal. */
    Response response(String requestId) {
        return Response.status(400).type(MediaType.APPLICATION_JSON).header("X-Request-Id", requestId).entity(body()).build();
    }

    private static String quoted(String s) {
        return "'" + shown(s) + "'";
    }

    static String shown(String s) {
        return s.length() <= SHOWN ? s : s.substring(0, SHOWN) + "… (" + s.length() + " characters)";
    }
}
