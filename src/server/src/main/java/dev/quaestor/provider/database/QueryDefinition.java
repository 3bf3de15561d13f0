package dev.quaestor.provider.database;

import dev.quaestor.provider.Mount;
import dev.quaestor.uri.CanonicalUri;
import dev.quaestor.uri.InvalidUriException;
import dev.quaestor.uri.UriCanonicalizer;
import dev.quaestor.uri.UriTemplate;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * One query a database mount serves, from {@code quaestor.mounts.<m>.options.queries.<name>.*}:
 * <ul>
 * <li>{@code template} (required): the URI template, e.g. {@code db://records/patients/{id}};</li>
 * <li>{@code sql} (required): the statement, with one {@code ?} per parameter;</li>
 * <li>{@code params}: template variables bound to the {@code ?}s in order (default: the template's
 *     variables in order); {@code types}: their {@link ParameterType}s (default text);</li>
 * <li>{@code kind}: {@code item} (one row; none = not found) or {@code list} (rows);</li>
 * <li>{@code format}: {@code json} (item: an object; list: an array of objects), {@code csv} (list
 *     only; the default for lists) or {@code raw} (item, one column: its bytes, sent as text or blob
 *     by {@code mime-type});</li>
 * <li>{@code list-sql}: for resources/list, a statement without parameters whose columns are named
 *     like the template's variables; each row becomes one listed URI;</li>
 * <li>{@code mime-type}, {@code title}, {@code description}.</li>
 * </ul>
 */
record QueryDefinition(String name, UriTemplate template, String sql, List<String> params, List<ParameterType> types,
        Kind kind, Format format, String listSql, String mimeType, String title, String description) {

    enum Kind { ITEM, LIST }

    enum Format { JSON, CSV, RAW }

    private static final String PREFIX = "queries.";

    /** Every query declared for a mount, by name; bad declarations are refused with the key at fault. */
    static List<QueryDefinition> allOf(Mount mount) {
        var byName = new TreeMap<String, java.util.Map<String, String>>();
        for (var e : mount.settings().entrySet()) {
            if (!e.getKey().startsWith(PREFIX)) {
                continue;
            }
            String rest = e.getKey().substring(PREFIX.length());
            int dot = rest.indexOf('.');
            if (dot <= 0) {
                throw new IllegalArgumentException("mount '" + mount.name() + "': " + mount.propertyName(e.getKey())
                        + " must be queries.<name>.<key>");
            }
            byName.computeIfAbsent(rest.substring(0, dot), k -> new TreeMap<>()).put(rest.substring(dot + 1), e.getValue());
        }
        if (byName.isEmpty()) {
            throw new IllegalArgumentException("mount '" + mount.name() + "' declares no queries: set "
                    + mount.propertyName("queries.<name>.template") + " and .sql");
        }
        var out = new ArrayList<QueryDefinition>();
        for (var e : byName.entrySet()) {
            out.add(parse(mount, e.getKey(), e.getValue()));
        }
        return out;
    }

    private static QueryDefinition parse(Mount mount, String name, Map<String, String> keys) {
        String where = "mount '" + mount.name() + "', query '" + name + "': ";
        var known = List.of("template", "sql", "params", "types", "kind", "format", "list-sql", "mime-type", "title",
                "description");
        for (String k : keys.keySet()) {
            if (!known.contains(k)) {
                throw new IllegalArgumentException(where + "unknown key '" + k + "' (known: " + String.join(", ", known) + ")");
            }
        }
        String templateText = require(keys, "template", where);
        UriTemplate template;
        try {
            template = UriTemplate.parse(templateText);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(where + e.getMessage());
        }
        if (!withinMount(mount, template)) {
            throw new IllegalArgumentException(where + "template " + templateText + " is not below " + mount.prefixText());
        }
        String sql = require(keys, "sql", where).trim();
        List<String> params = split(keys.get("params"));
        if (params.isEmpty() && keys.get("params") == null) {
            params = template.variables();
        }
        for (String p : params) {
            if (!template.variables().contains(p)) {
                throw new IllegalArgumentException(where + "parameter '" + p + "' is not a variable of " + templateText);
            }
        }
        int placeholders = countPlaceholders(sql);
        if (placeholders != params.size()) {
            throw new IllegalArgumentException(where + "sql has " + placeholders + " '?' but " + params.size()
                    + " parameter(s) " + params + " are bound");
        }
        var types = new ArrayList<ParameterType>();
        List<String> typeNames = split(keys.get("types"));
        if (!typeNames.isEmpty() && typeNames.size() != params.size()) {
            throw new IllegalArgumentException(where + "types lists " + typeNames.size() + " type(s) for "
                    + params.size() + " parameter(s)");
        }
        for (int i = 0; i < params.size(); i++) {
            try {
                types.add(typeNames.isEmpty() ? ParameterType.TEXT : ParameterType.of(typeNames.get(i)));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(where + e.getMessage());
            }
        }
        Kind kind = enumOf(Kind.class, keys.getOrDefault("kind", "item"), where + "kind");
        Format format = enumOf(Format.class, keys.getOrDefault("format", kind == Kind.LIST ? "csv" : "json"), where + "format");
        if (kind == Kind.ITEM && format == Format.CSV) {
            throw new IllegalArgumentException(where + "format csv is for kind list");
        }
        if (kind == Kind.LIST && format == Format.RAW) {
            throw new IllegalArgumentException(where + "format raw is for kind item");
        }
        String listSql = keys.get("list-sql");
        if (listSql != null && countPlaceholders(listSql) > 0) {
            throw new IllegalArgumentException(where + "list-sql takes no parameters");
        }
        if (listSql != null) {
            for (String v : template.variables()) {
                if (!v.matches("[A-Za-z_][A-Za-z0-9_]*")) {
                    throw new IllegalArgumentException(where + "list-sql is paged by the template's variables as its"
                            + " columns, so variable '" + v + "' must be a plain SQL name (letters, digits, _)");
                }
            }
        }
        String mime = keys.getOrDefault("mime-type", switch (format) {
            case JSON -> "application/json";
            case CSV -> "text/csv";
            case RAW -> "application/octet-stream";
        });
        return new QueryDefinition(name, template, sql, List.copyOf(params), List.copyOf(types), kind, format,
                listSql, mime, keys.get("title"), keys.get("description"));
    }

    private static boolean withinMount(Mount mount, UriTemplate template) {
        String literal = template.literalPrefix();
        int cut = template.variables().isEmpty() ? literal.length() : literal.lastIndexOf('/');
        if (cut < 0) {
            return false;
        }
        try {
            CanonicalUri c = UriCanonicalizer.canonicalize(literal.substring(0, cut));
            return c.isWithin(mount.prefix());
        } catch (InvalidUriException e) {
            return false;
        }
    }

    private static String require(Map<String, String> keys, String key, String where) {
        String v = keys.get(key);
        if (v == null || v.isBlank()) {
            throw new IllegalArgumentException(where + "needs '" + key + "'");
        }
        return v;
    }

    private static List<String> split(String csv) {
        if (csv == null || csv.isBlank()) {
            return List.of();
        }
        var out = new ArrayList<String>();
        for (String s : csv.split(",")) {
            out.add(s.trim());
        }
        return out;
    }

    private static <E extends Enum<E>> E enumOf(Class<E> type, String value, String where) {
        try {
            return Enum.valueOf(type, value.trim().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(where + " '" + value + "' is not one of "
                    + java.util.Arrays.toString(type.getEnumConstants()).toLowerCase(Locale.ROOT));
        }
    }

    /** '?' outside quoted literals, identifiers and comments. */
    static int countPlaceholders(String sql) {
        int n = 0;
        for (int i = 0; i < sql.length(); i++) {
            char c = sql.charAt(i);
            if (c == '\'' || c == '"') {
                int end = sql.indexOf(c, i + 1);
                i = end < 0 ? sql.length() : end;
            } else if (c == '-' && i + 1 < sql.length() && sql.charAt(i + 1) == '-') {
                int end = sql.indexOf('\n', i);
                i = end < 0 ? sql.length() : end;
            } else if (c == '?') {
                n++;
            }
        }
        return n;
    }
}
