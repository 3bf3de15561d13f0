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

    /** The value converted for binding, or null if it is not a value of this type. */
    Object convert(String value) {
        try {
            return switch (this) {
                case TEXT -> value;
                case INTEGER -> Integer.valueOf(value);
                case BIGINT -> Long.valueOf(value);
                case NUMERIC -> new BigDecimal(value);
                case BOOLEAN -> value.equals("true") ? Boolean.TRUE : value.equals("false") ? Boolean.FALSE : null;
                case DATE -> java.sql.Date.valueOf(LocalDate.parse(value));
                case UUID -> java.util.UUID.fromString(value).toString().equals(value.toLowerCase(Locale.ROOT))
                        ? java.util.UUID.fromString(value) : null;
            };
        } catch (DateTimeParseException | IllegalArgumentException e) {
            return null; // NumberFormatException is an IllegalArgumentException
        }
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
