package dev.quaestor.audit.record;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.annotation.JsonSerialize;
import com.fasterxml.jackson.databind.ser.std.StdSerializer;
import dev.quaestor.evidence.RecordField;
import dev.quaestor.evidence.RecordFormat;
import dev.quaestor.evidence.v1.V1Record;
import java.io.IOException;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.List;
import java.util.function.Function;
import java.util.stream.Stream;

/**
 * One stored audit record as the read side shows it, typed: its row id, each field of the record format
 * ({@link RecordField}, docs/audit-format.md, section 1; null when absent), its stored hash, and for a version-1 record
 * its link ({@code prev}). A version-1 record's log, which that version names {@code chain}, is {@link #log} too.
 * Made from a record's text in one place ({@link #of(Long, RecordText)}), and shown as text field by field in one
 * place ({@link #text(RecordField)}), so that every output writes each value exactly as the record holds it.
 */
@JsonSerialize(using = AuditRow.Json.class)
public record AuditRow(Long id, Version v, String log, Long seq, Instant time, String request, AuditEvent.Kind kind,
        String session, String correlation, String subject, String client, String tenant, String roles, String ip, String ua,
        String clientInfo, String authContext, String protocol, String method, String action, String uri, Decision decision,
        String rules, String revision, String outcome, Integer error, Long bytes, Integer items, String sha256,
        String cacheScope, Long latencyUs, Long count, Instant first, Instant last, String uris, Long urisMore, String detail,
        String hash, String prev) {

    /** The record's format version. */
    public enum Version {
        V1(V1Record.VERSION), V2(RecordFormat.V2), V3(RecordFormat.V3);

        private final String text;

        Version(String text) {
            this.text = text;
        }

        public String text() {
            return text;
        }
    }

    /** What the policy decided, as a record says: a listing judged entry by entry is {@code FILTER}. */
    public enum Decision {
        ALLOW, DENY, FILTER
    }

    /** The fields a row shows in exports, CSV and JSON Lines alike: version 3's, in format order, then the stored hash. */
    public static final List<String> EXPORTED_FIELDS = Stream.concat(RecordFormat.FIELDS_V3.stream(), Stream.of("hash")).toList();

    /**
     * The fields a row shows as JSON, in this order: {@link #EXPORTED_FIELDS}, then a version-1 record's log and link
     * under that version's names ({@code chain}, {@code prev}). The search answers each record with its row id first.
     */
    public static final List<String> SHOWN_FIELDS = Stream.concat(EXPORTED_FIELDS.stream(), Stream.of("chain", "prev")).toList();

    /** A row selected as {@code id, }{@link AuditRecords#COLUMN_LIST}. */
    public static AuditRow read(ResultSet rs) throws SQLException {
        return of(rs.getLong(1), RecordText.read(rs, 2));
    }

    /**
     * From a record's fields as text, by their format names ({@code hash} and a version-1 record's {@code chain} and
     * {@code prev} too); {@code field} answers null for an absent one.
     *
     * @throws IllegalStateException if a value is not of its field's type
     */
    public static AuditRow parse(Long id, Function<String, String> field) {
        var values = new String[AuditRecords.COLUMNS.size()];
        for (RecordField f : RecordField.values()) {
            values[f.ordinal()] = field.apply(f.formatName());
        }
        if (V1Record.VERSION.equals(values[RecordField.V.ordinal()])) {
            values[RecordField.LOG.ordinal()] = field.apply("chain");
            values[AuditRecords.PREV] = field.apply("prev");
        }
        values[AuditRecords.HASH] = field.apply("hash");
        return of(id, new RecordText(values));
    }

    /**
     * The typed record of a stored one: the one place a record's text becomes typed values.
     *
     * @throws IllegalStateException if a value is not of its field's type (a version, kind or decision this server does
     *                               not know, a number or time that is not one)
     */
    static AuditRow of(Long id, RecordText t) {
        var p = new Parser(t);
        return new AuditRow(id, p.version(), p.text(RecordField.LOG), p.decimal(RecordField.SEQ), p.instant(RecordField.TIME),
                p.text(RecordField.REQUEST), p.kind(), p.text(RecordField.SESSION), p.text(RecordField.CORRELATION),
                p.text(RecordField.SUBJECT), p.text(RecordField.CLIENT), p.text(RecordField.TENANT), p.text(RecordField.ROLES),
                p.text(RecordField.IP), p.text(RecordField.UA), p.text(RecordField.CLIENT_INFO), p.text(RecordField.AUTH_CONTEXT),
                p.text(RecordField.PROTOCOL), p.text(RecordField.METHOD), p.text(RecordField.ACTION), p.text(RecordField.URI),
                p.decision(), p.text(RecordField.RULES), p.text(RecordField.REVISION), p.text(RecordField.OUTCOME),
                p.integer(RecordField.ERROR), p.decimal(RecordField.BYTES), p.integer(RecordField.ITEMS),
                p.text(RecordField.SHA256), p.text(RecordField.CACHE_SCOPE), p.decimal(RecordField.LATENCY_US),
                p.decimal(RecordField.COUNT), p.instant(RecordField.FIRST), p.instant(RecordField.LAST),
                p.text(RecordField.URIS), p.decimal(RecordField.URIS_MORE), p.text(RecordField.DETAIL), t.hash(), t.prev());
    }

    /** A field's text as the record holds it; null if absent. */
    public String text(RecordField f) {
        return switch (f) {
            case V -> v == null ? null : v.text();
            case LOG -> log;
            case SEQ -> str(seq);
            case TIME -> str(time);
            case REQUEST -> request;
            case KIND -> kind == null ? null : kind.name();
            case SESSION -> session;
            case CORRELATION -> correlation;
            case SUBJECT -> subject;
            case CLIENT -> client;
            case TENANT -> tenant;
            case ROLES -> roles;
            case IP -> ip;
            case UA -> ua;
            case CLIENT_INFO -> clientInfo;
            case AUTH_CONTEXT -> authContext;
            case PROTOCOL -> protocol;
            case METHOD -> method;
            case ACTION -> action;
            case URI -> uri;
            case DECISION -> decision == null ? null : decision.name();
            case RULES -> rules;
            case REVISION -> revision;
            case OUTCOME -> outcome;
            case ERROR -> str(error);
            case BYTES -> str(bytes);
            case ITEMS -> str(items);
            case SHA256 -> sha256;
            case CACHE_SCOPE -> cacheScope;
            case LATENCY_US -> str(latencyUs);
            case COUNT -> str(count);
            case FIRST -> str(first);
            case LAST -> str(last);
            case URIS -> uris;
            case URIS_MORE -> str(urisMore);
            case DETAIL -> detail;
        };
    }

    /**
     * A value's text by its name: a format field's, or {@code id}, {@code hash}, and a version-1 record's {@code chain}
     * and {@code prev} (such a record has no {@code log}); null if absent or unknown.
     */
    public String text(String name) {
        boolean v1 = v == Version.V1;
        return switch (name) {
            case "id" -> str(id);
            case "hash" -> hash;
            case "prev" -> prev;
            case "chain" -> v1 ? log : null;
            case "log" -> v1 ? null : log;
            default -> {
                RecordField f = AuditRecords.FIELD_BY_NAME.get(name);
                yield f == null ? null : text(f);
            }
        };
    }

    /**
     * Whether its fields as read still hash to its stored leaf hash (versions 2 and 3; a version-1 record, whose stored
     * hash is another one, is not asked): one hash of one record, cheap enough for every row a page shows. False: the row
     * was changed after it was written. True says nothing of a row changed with its hash recomputed to match, which only
     * the check of its log's tree finds.
     */
    public boolean matchesItsHash() {
        if (v == null || v == Version.V1) {
            return true;
        }
        try {
            return java.security.MessageDigest.isEqual(RecordFormat.leafHash(this::text), dev.quaestor.evidence.Hex.hash(hash));
        } catch (RuntimeException e) {
            return false; // a stored hash that is not 64 hex digits, or fields the format cannot write, match nothing
        }
    }

    /** Whether the record is a summary of refused attempts past a limit, standing for {@link #count} of them. */
    public boolean isSummary() {
        return kind == AuditEvent.Kind.ATTEMPT_SUMMARY && count != null;
    }

    private static String str(Object o) {
        return o == null ? null : o.toString();
    }

    /** The auditor API's JSON of a record: its row id, then {@link #SHOWN_FIELDS} in that order, each as text. */
    static final class Json extends StdSerializer<AuditRow> {

        Json() {
            super(AuditRow.class);
        }

        @Override
        public void serialize(AuditRow row, JsonGenerator g, SerializerProvider provider) throws IOException {
            g.writeStartObject();
            for (String name : JSON_FIELDS) {
                String value = row.text(name);
                if (value != null) {
                    g.writeStringField(name, value);
                }
            }
            g.writeEndObject();
        }

        private static final List<String> JSON_FIELDS = Stream.concat(Stream.of("id"), SHOWN_FIELDS.stream()).toList();
    }

    /** Reads each field's text as its type, naming the record and field when one is not. */
    private record Parser(RecordText t) {

        String text(RecordField f) {
            return t.value(f);
        }

        Long decimal(RecordField f) {
            String s = t.value(f);
            try {
                return s == null ? null : Long.valueOf(s);
            } catch (NumberFormatException e) {
                throw unreadable(f, s);
            }
        }

        Integer integer(RecordField f) {
            String s = t.value(f);
            try {
                return s == null ? null : Integer.valueOf(s);
            } catch (NumberFormatException e) {
                throw unreadable(f, s);
            }
        }

        Instant instant(RecordField f) {
            String s = t.value(f);
            try {
                return s == null ? null : Instant.parse(s);
            } catch (java.time.format.DateTimeParseException e) {
                throw unreadable(f, s);
            }
        }

        Version version() {
            String s = t.value(RecordField.V);
            if (s == null) {
                return null;
            }
            for (Version v : Version.values()) {
                if (v.text().equals(s)) {
                    return v;
                }
            }
            throw unreadable(RecordField.V, s);
        }

        AuditEvent.Kind kind() {
            return name(RecordField.KIND, AuditEvent.Kind.class);
        }

        Decision decision() {
            return name(RecordField.DECISION, Decision.class);
        }

        private <E extends Enum<E>> E name(RecordField f, Class<E> type) {
            String s = t.value(f);
            try {
                return s == null ? null : Enum.valueOf(type, s);
            } catch (IllegalArgumentException e) {
                throw unreadable(f, s);
            }
        }

        private IllegalStateException unreadable(RecordField f, String value) {
            return new IllegalStateException("audit record " + t.value(RecordField.LOG) + "/" + t.value(RecordField.SEQ) + ": "
                    + f.formatName() + " '" + value + "' is not a value this server reads");
        }
    }
}
