package dev.quaestor.provider.database;

import java.math.BigDecimal;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Types;
import java.time.LocalDate;
import java.time.format.DateTimeParseException;
import java.util.Locale;

/**
 * How a template value is bound to a {@code ?}. Values are always bound, never spliced into SQL.
 * A value that is not of the declared type (such as {@code 1 OR 1=1} for an integer) cannot name
 * a row, so it gives "not found" without a query being run.
 *
 * <p>A value must also be in its type's one spelling ({@code 1}, not {@code 01}, {@code +1} or {@code 1.0}; a UUID
 * in lower case): otherwise one row would answer to many URIs, and a policy rule naming one of them (a denial of
 * {@code db://records/patients/1}) would not hold for the others.
 */
enum ParameterType {
    TEXT, INTEGER, BIGINT, NUMERIC, BOOLEAN, DATE, UUID;

    static ParameterType of(String name) {
        try {
            return valueOf(name.trim().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("unknown parameter type '" + name + "' (text, integer, bigint, numeric,"
                    + " boolean, date, uuid)");
        }
    }

    /** The value converted for binding, or null if it is not a value of this type in the type's one spelling. */
    Object convert(String value) {
        Object parsed;
        try {
            parsed = switch (this) {
                case TEXT -> value;
                case INTEGER -> Integer.valueOf(value);
                case BIGINT -> Long.valueOf(value);
                case NUMERIC -> new BigDecimal(value);
                case BOOLEAN -> value.equals("true") ? Boolean.TRUE : value.equals("false") ? Boolean.FALSE : null;
                case DATE -> LocalDate.parse(value);
                case UUID -> java.util.UUID.fromString(value);
            };
        } catch (DateTimeParseException | IllegalArgumentException e) {
            return null; // NumberFormatException is an IllegalArgumentException
        }
        if (parsed == null) {
            return null;
        }
        String spelled = parsed instanceof BigDecimal d ? d.stripTrailingZeros().toPlainString() : parsed.toString();
        if (!spelled.equals(value)) {
            return null;
        }
        return parsed instanceof LocalDate date ? java.sql.Date.valueOf(date) : parsed;
    }

    void bind(PreparedStatement ps, int index, Object converted) throws SQLException {
        switch (this) {
            case TEXT -> ps.setString(index, (String) converted);
            case INTEGER -> ps.setInt(index, (Integer) converted);
            case BIGINT -> ps.setLong(index, (Long) converted);
            case NUMERIC -> ps.setBigDecimal(index, (BigDecimal) converted);
            case BOOLEAN -> ps.setBoolean(index, (Boolean) converted);
            case DATE -> ps.setDate(index, (java.sql.Date) converted);
            case UUID -> ps.setObject(index, converted, Types.OTHER);
        }
    }
}
