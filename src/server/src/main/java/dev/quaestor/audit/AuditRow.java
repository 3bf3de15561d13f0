package dev.quaestor.audit;

import com.fasterxml.jackson.annotation.JsonValue;
import dev.quaestor.evidence.RecordFormat;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * One stored audit record as the read side shows it: its row id, each field of the record format
 * (docs/audit-format.md, section 1, in that order; null when absent), its stored hash, and for a version-1 record
 * its log under the version-1 name ({@code chain}, {@code log} then being null) and its link ({@code prev}). Every
 * value is the text the record holds. Read from a row in one place ({@link #read(ResultSet)}).
 */
public record AuditRow(Long id, String v, String log, String seq, String time, String request, String kind, String session,
        String correlation, String subject, String client, String tenant, String roles, String ip, String ua,
        String clientInfo, String authContext, String protocol, String method, String action, String uri, String decision,
        String rules, String revision, String outcome, String error, String bytes, String items, String sha256,
        String cacheScope, String latencyUs, String count, String first, String last, String uris, String urisMore,
        String detail, String hash, String chain, String prev) {

    /** The fields a row shows in exports, CSV and JSON Lines alike: version 3's, in format order, then the stored hash. */
    public static final List<String> EXPORTED_FIELDS = Stream.concat(RecordFormat.FIELDS_V3.stream(), Stream.of("hash")).toList();

    /** A row selected as {@code id, }{@link AuditRecords#COLUMN_LIST}. */
    static AuditRow read(ResultSet rs) throws SQLException {
        return of(rs.getLong(1), AuditRecords.fromRow(rs, 2));
    }

    /** A row selected as {@link AuditRecords#COLUMN_LIST} alone (no id). */
    static AuditRow readWithoutId(ResultSet rs) throws SQLException {
        return of(null, AuditRecords.fromRow(rs, 1));
    }

    /** From fields under their format names ({@code id} too, if there is one); absent ones left out. */
    public static AuditRow of(Map<String, String> fields) {
        String id = fields.get("id");
        return of(id == null ? null : Long.valueOf(id), fields);
    }

    private static AuditRow of(Long id, Map<String, String> f) {
        return new AuditRow(id, f.get("v"), f.get("log"), f.get("seq"), f.get("time"), f.get("request"), f.get("kind"),
                f.get("session"), f.get("correlation"), f.get("subject"), f.get("client"), f.get("tenant"), f.get("roles"),
                f.get("ip"), f.get("ua"), f.get("client_info"), f.get("auth_context"), f.get("protocol"), f.get("method"),
                f.get("action"), f.get("uri"), f.get("decision"), f.get("rules"), f.get("revision"), f.get("outcome"),
                f.get("error"), f.get("bytes"), f.get("items"), f.get("sha256"), f.get("cache_scope"), f.get("latency_us"),
                f.get("count"), f.get("first"), f.get("last"), f.get("uris"), f.get("uris_more"), f.get("detail"),
                f.get("hash"), f.get("chain"), f.get("prev"));
    }

    /** A field by its format name ({@code id}, {@code hash}, {@code chain} and {@code prev} too); null if absent or unknown. */
    public String get(String name) {
        return switch (name) {
            case "id" -> id == null ? null : id.toString();
            case "v" -> v;
            case "log" -> log;
            case "seq" -> seq;
            case "time" -> time;
            case "request" -> request;
            case "kind" -> kind;
            case "session" -> session;
            case "correlation" -> correlation;
            case "subject" -> subject;
            case "client" -> client;
            case "tenant" -> tenant;
            case "roles" -> roles;
            case "ip" -> ip;
            case "ua" -> ua;
            case "client_info" -> clientInfo;
            case "auth_context" -> authContext;
            case "protocol" -> protocol;
            case "method" -> method;
            case "action" -> action;
            case "uri" -> uri;
            case "decision" -> decision;
            case "rules" -> rules;
            case "revision" -> revision;
            case "outcome" -> outcome;
            case "error" -> error;
            case "bytes" -> bytes;
            case "items" -> items;
            case "sha256" -> sha256;
            case "cache_scope" -> cacheScope;
            case "latency_us" -> latencyUs;
            case "count" -> count;
            case "first" -> first;
            case "last" -> last;
            case "uris" -> uris;
            case "uris_more" -> urisMore;
            case "detail" -> detail;
            case "hash" -> hash;
            case "chain" -> chain;
            case "prev" -> prev;
            default -> null;
        };
    }

    /**
     * The record's present fields under their format names, without the row id: what the evidence classes hash and
     * prove. Filled column by column, a version-1 record's {@code chain} last, into a hash map of 48 entries: the
     * search API's JSON ({@link #json()}) lists the fields in that map's iteration order, so the size and the order of
     * filling are part of the answer's bytes.
     */
    public Map<String, String> fields() {
        var m = new HashMap<String, String>(48);
        for (AuditRecords.Column c : AuditRecords.COLUMNS) {
            String value = get(c.field());
            if (value != null) {
                m.put(c.field(), value);
            }
        }
        if (chain != null) {
            m.put("chain", chain);
        }
        return m;
    }

    /** The record as the auditor API's search answers it: its row id, then its fields ({@link #fields()}). */
    @JsonValue
    public Map<String, String> json() {
        var m = new LinkedHashMap<String, String>();
        if (id != null) {
            m.put("id", id.toString());
        }
        m.putAll(fields());
        return m;
    }
}
