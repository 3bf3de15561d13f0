package dev.quaestor.admin;

import io.vertx.core.MultiMap;
import java.util.List;

/** Checks of an auditor API call's query parameters, made before the call is recorded; each throws {@link InvalidQuery}. */
final class QueryCheck {

    private QueryCheck() {
    }

    /**
     * Every parameter given is one of {@code accepted}, none is given twice or empty, and no value holds a NUL character (no
     * record can: PostgreSQL's text has none, so such a value would fail the database's query instead of being answered).
     */
    static void only(MultiMap given, List<String> accepted) {
        for (String name : given.names()) {
            if (!accepted.contains(name)) {
                throw InvalidQuery.unknown(name, accepted);
            }
            if (given.getAll(name).size() > 1) {
                throw InvalidQuery.repeated(name);
            }
            String value = given.get(name);
            if (value != null && value.isEmpty()) {
                // Read as no filter, "subject=$WHO" with WHO unset would answer with everyone's records.
                throw InvalidQuery.notA(name, value, "a value: leave the parameter out to ask for none");
            }
            if (value != null && value.indexOf('\0') >= 0) {
                throw InvalidQuery.notA(name, value, "text without a NUL character (%00)");
            }
        }
    }

    /**
     * The parameters given, as the call's record keeps them: {@code name=value} for each one given (its value cut as a
     * refusal quotes it, {@link InvalidQuery#shown}), those not given left out; null if none is given.
     *
     * @param namesAndValues each parameter's name, then its value as given (null: not given)
     */
    static String given(String... namesAndValues) {
        var given = new java.util.StringJoiner(" ");
        for (int i = 0; i < namesAndValues.length; i += 2) {
            String value = namesAndValues[i + 1];
            if (value != null) {
                given.add(namesAndValues[i] + "=" + InvalidQuery.shown(value));
            }
        }
        return given.length() == 0 ? null : given.toString();
    }

    /** {@code value}, if given, is one of {@code accepted}. */
    static String oneOf(String parameter, String value, List<String> accepted) {
        if (value != null && !accepted.contains(value)) {
            throw InvalidQuery.notOneOf(parameter, value, accepted);
        }
        return value;
    }

    /** A whole number from {@code min} to {@code max}, written in decimal digits; {@code standard} when not given. */
    static long number(String parameter, String value, long min, long max, Long standard) {
        String accepted = "a whole number from " + min + " to " + max;
        if (value == null) {
            if (standard == null) {
                throw InvalidQuery.missing(parameter, accepted);
            }
            return standard;
        }
        if (!value.matches("[0-9]{1,19}")) {
            throw InvalidQuery.notA(parameter, value, accepted);
        }
        try {
            long n = Long.parseLong(value);
            if (n >= min && n <= max) {
                return n;
            }
        } catch (NumberFormatException e) {
            // past a long: said below
        }
        throw InvalidQuery.notA(parameter, value, accepted);
    }
}
