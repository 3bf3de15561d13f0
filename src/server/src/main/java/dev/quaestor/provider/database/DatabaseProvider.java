package dev.quaestor.provider.database;

import dev.quaestor.provider.ContentTooLargeException;
import dev.quaestor.provider.InvalidCursorException;
import dev.quaestor.provider.MimeTypes;
import dev.quaestor.provider.Mount;
import dev.quaestor.provider.Page;
import dev.quaestor.provider.ResourceContent;
import dev.quaestor.provider.ResourceEntry;
import dev.quaestor.provider.ResourceNotFoundException;
import dev.quaestor.provider.ResourceProvider;
import dev.quaestor.provider.TemplateEntry;
import dev.quaestor.uri.CanonicalUri;
import dev.quaestor.uri.InvalidUriException;
import dev.quaestor.uri.UriCanonicalizer;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Serves rows of a relational database through queries declared in configuration (see
 * {@link QueryDefinition}). A URI is matched against each query's template; the matched values
 * are converted to the declared parameter types and bound to the statement's {@code ?}s, never
 * spliced into SQL. Every statement runs through {@link ReadOnlyQueries}: a read-only transaction
 * with a statement timeout, rolled back afterwards. Listing pages through each query's
 * {@code list-sql} by key ({@link #list}).
 */
final class DatabaseProvider implements ResourceProvider {

    private final Mount mount;
    private final List<QueryDefinition> queries;
    private final ReadOnlyQueries db;
    private final long maxBytes;
    private final int maxRows;
    private final AutoCloseable onClose;

    /** {@code share}: the connections the mount may hold at once of a datasource it shares; 0 for a pool of its own. */
    DatabaseProvider(Mount mount, javax.sql.DataSource dataSource, int share, AutoCloseable onClose) {
        this.mount = mount;
        this.queries = QueryDefinition.allOf(mount);
        this.db = new ReadOnlyQueries(dataSource, mount.durationSetting("statement-timeout", Duration.ofSeconds(5)), share);
        this.maxBytes = mount.longSetting("max-bytes", 10 * 1024 * 1024);
        this.maxRows = (int) Math.min(Integer.MAX_VALUE - 1, mount.longSetting("max-rows", 1000));
        this.onClose = onClose;
    }

    @Override
    public ResourceContent read(CanonicalUri uri) {
        for (QueryDefinition q : queries) {
            Optional<Map<String, String>> values = q.template().match(uri);
            if (values.isPresent()) {
                return read(uri, q, values.get());
            }
        }
        throw new ResourceNotFoundException(uri.toString());
    }

    private ResourceContent read(CanonicalUri uri, QueryDefinition q, Map<String, String> values) {
        var bound = new ArrayList<ReadOnlyQueries.Bound>();
        for (int i = 0; i < q.params().size(); i++) {
            String value = values.get(q.params().get(i));
            Object converted = value == null ? null : q.types().get(i).convert(value);
            if (converted == null) {
                throw new ResourceNotFoundException(uri.toString()); // not a value of the declared type: names no row
            }
            bound.add(new ReadOnlyQueries.Bound(q.types().get(i), converted));
        }
        byte[] bytes;
        try {
            bytes = switch (q.kind()) {
                case ITEM -> db.run(q.sql(), bound, 2, rs -> item(uri, q, rs));
                case LIST -> db.run(q.sql(), bound, maxRows + 1, rs -> q.format() == QueryDefinition.Format.CSV
                        ? RowWriter.csv(rs, maxRows) : RowWriter.jsonArray(rs, maxRows));
            };
        } catch (SQLException e) {
            throw new IllegalStateException("mount '" + mount.name() + "', query '" + q.name() + "' failed: "
                    + e.getMessage() + " (SQLState " + e.getSQLState() + ")", e);
        }
        if (bytes.length > maxBytes) {
            throw new ContentTooLargeException(maxBytes);
        }
        boolean text = q.format() != QueryDefinition.Format.RAW
                || (MimeTypes.isText(q.mimeType()) && MimeTypes.looksLikeText(bytes));
        String name = uri.segments().isEmpty() ? q.name() : uri.segments().get(uri.segments().size() - 1);
        var entry = new ResourceEntry(uri, name, q.title(), q.description(), q.mimeType(), (long) bytes.length, null);
        return new ResourceContent(entry, bytes, text);
    }

    private byte[] item(CanonicalUri uri, QueryDefinition q, ResultSet rs) throws SQLException {
        if (!rs.next()) {
            throw new ResourceNotFoundException(uri.toString());
        }
        byte[] bytes = q.format() == QueryDefinition.Format.RAW ? RowWriter.raw(rs) : RowWriter.jsonObject(rs);
        if (rs.next()) {
            throw new IllegalStateException("mount '" + mount.name() + "', query '" + q.name()
                    + "' is an item query but returned more than one row");
        }
        if (bytes == null) {
            throw new ResourceNotFoundException(uri.toString()); // raw column is NULL
        }
        return bytes;
    }

    // --- listing: each query's list-sql, in query name order, paged by key -------------------------

    /**
     * A page of URIs: each query's {@code list-sql} in turn, ordered by the template's variables and paged by them
     * (keyset: the cursor holds the last row's values, and the next page asks only for rows after them), so a page
     * costs the statement's first {@code limit} rows past the cursor, never the rows before it.
     */
    @Override
    public Page<ResourceEntry> list(String cursor, int limit) {
        int queryIndex = 0;
        List<String> after = null;
        if (cursor != null) {
            ListCursor c = ListCursor.decode(cursor);
            queryIndex = indexOf(c.query());
            after = c.after();
            QueryDefinition q = queries.get(queryIndex);
            if (after != null && (q.listSql() == null || after.size() != q.template().variables().size())) {
                throw new InvalidCursorException();
            }
        }
        var out = new ArrayList<ResourceEntry>(limit);
        for (; queryIndex < queries.size(); queryIndex++, after = null) {
            QueryDefinition q = queries.get(queryIndex);
            if (q.listSql() == null && !q.template().variables().isEmpty()) {
                continue;
            }
            int want = limit - out.size();
            if (want == 0) {
                return new Page<>(out, ListCursor.encode(q.name(), null));
            }
            if (q.listSql() == null) {
                if (after == null) {
                    CanonicalUri u = canonical(q.template().expand(Map.of()));
                    if (u != null) {
                        out.add(new ResourceEntry(u, q.name(), q.title(), q.description(), q.mimeType(), null, null));
                    }
                }
                continue;
            }
            KeysetPage rows = listQuery(q, after, want);
            out.addAll(rows.entries());
            if (rows.lastKey() != null) {
                return new Page<>(out, ListCursor.encode(q.name(), rows.lastKey()));
            }
        }
        return new Page<>(out, null);
    }

    /** One query's rows after a key: the entries, and the last row's key if more may follow (else null). */
    private record KeysetPage(List<ResourceEntry> entries, List<String> lastKey) {
    }

    private KeysetPage listQuery(QueryDefinition q, List<String> after, int count) {
        List<String> keys = q.template().variables();
        var bound = new ArrayList<ReadOnlyQueries.Bound>();
        if (after != null) {
            for (int i = 0; i < keys.size(); i++) {
                ParameterType type = typeOf(q, keys.get(i));
                Object value = type.convert(after.get(i));
                if (value == null) {
                    throw new InvalidCursorException();
                }
                bound.add(new ReadOnlyQueries.Bound(type, value));
            }
        }
        try {
            return db.run(keysetSql(q, after != null), bound, count + 1, rs -> {
                var out = new ArrayList<ResourceEntry>(count);
                ResultSetMetaData md = rs.getMetaData();
                List<String> last = null;
                int row = 0;
                while (rs.next()) {
                    if (row++ == count) {
                        return new KeysetPage(out, last);
                    }
                    var values = new HashMap<String, String>();
                    for (int i = 1; i <= md.getColumnCount(); i++) {
                        String label = md.getColumnLabel(i);
                        for (String v : keys) {
                            if (v.equalsIgnoreCase(label)) {
                                values.put(v, rs.getString(i));
                            }
                        }
                    }
                    boolean whole = values.keySet().containsAll(keys) && !values.containsValue(null);
                    if (whole) {
                        last = keys.stream().map(values::get).toList();
                    }
                    CanonicalUri u = whole ? canonical(q.template().expand(values)) : null;
                    if (u != null) {
                        String name = u.segments().isEmpty() ? q.name() : u.segments().get(u.segments().size() - 1);
                        out.add(new ResourceEntry(u, name, q.title(), q.description(), q.mimeType(), null, null));
                    }
                }
                return new KeysetPage(out, null);
            });
        } catch (SQLException e) {
            throw new IllegalStateException("mount '" + mount.name() + "', list-sql of '" + q.name() + "' failed: "
                    + e.getMessage(), e);
        }
    }

    /**
     * The query's {@code list-sql} ordered by the template's variables and, after a cursor, limited to rows after
     * its key (a row comparison). A variable bound with a declared type is compared as that type; any other as text.
     */
    private static String keysetSql(QueryDefinition q, boolean afterKey) {
        var columns = new ArrayList<String>();
        var marks = new ArrayList<String>();
        for (String v : q.template().variables()) {
            boolean typed = typeOf(q, v) != ParameterType.TEXT;
            columns.add(typed ? v : "CAST(" + v + " AS VARCHAR)");
            marks.add("?");
        }
        String inner = q.listSql().strip();
        while (inner.endsWith(";")) {
            inner = inner.substring(0, inner.length() - 1).strip();
        }
        String key = String.join(", ", columns);
        String where = !afterKey ? "" : columns.size() == 1 ? " WHERE " + key + " > ?"
                : " WHERE (" + key + ") > (" + String.join(", ", marks) + ")";
        return "SELECT * FROM (" + inner + ") quaestor_list" + where + " ORDER BY " + key;
    }

    /** A template variable's declared type, if the item statement binds it; else text. */
    private static ParameterType typeOf(QueryDefinition q, String variable) {
        int i = q.params().indexOf(variable);
        return i < 0 ? ParameterType.TEXT : q.types().get(i);
    }

    /** The canonical form of an expanded template, or null when it is not a canonical URI of this mount. */
    private CanonicalUri canonical(String uri) {
        try {
            CanonicalUri c = UriCanonicalizer.canonicalize(uri);
            return c.isWithin(mount.prefix()) ? c : null;
        } catch (InvalidUriException e) {
            return null;
        }
    }

    private int indexOf(String name) {
        for (int i = 0; i < queries.size(); i++) {
            if (queries.get(i).name().equals(name)) {
                return i;
            }
        }
        throw new InvalidCursorException();
    }


    /**
     * Completes a variable of a query's template from its {@code list-sql} (the column named like
     * the variable), keeping rows that agree with values already chosen for other variables. Queries
     * without {@code list-sql} offer nothing.
     */
    @Override
    public List<String> complete(String uriTemplate, String argument, String prefix, Map<String, String> resolved,
            int limit) {
        for (QueryDefinition q : queries) {
            if (!q.template().text().equals(uriTemplate) || q.listSql() == null) {
                continue;
            }
            try {
                return db.run(q.listSql(), List.of(), maxRows, rs -> {
                    var out = new java.util.LinkedHashSet<String>();
                    ResultSetMetaData md = rs.getMetaData();
                    while (rs.next() && out.size() < limit) {
                        String value = null;
                        boolean agrees = true;
                        for (int i = 1; i <= md.getColumnCount(); i++) {
                            String label = md.getColumnLabel(i);
                            String cell = rs.getString(i);
                            if (label.equalsIgnoreCase(argument)) {
                                value = cell;
                            } else {
                                for (var r : resolved.entrySet()) {
                                    if (r.getKey().equalsIgnoreCase(label) && !r.getValue().equals(cell)) {
                                        agrees = false;
                                    }
                                }
                            }
                        }
                        if (agrees && value != null && value.startsWith(prefix)) {
                            out.add(value);
                        }
                    }
                    return List.copyOf(out);
                });
            } catch (SQLException e) {
                throw new IllegalStateException("mount '" + mount.name() + "', list-sql of '" + q.name() + "' failed: "
                        + e.getMessage(), e);
            }
        }
        return List.of();
    }

    @Override
    public List<TemplateEntry> templates() {
        var out = new ArrayList<TemplateEntry>();
        for (QueryDefinition q : queries) {
            if (!q.template().variables().isEmpty()) {
                out.add(TemplateEntry.of(q.template(), q.name(), q.title(), q.description(), q.mimeType()));
            }
        }
        return out;
    }

    @Override
    public void close() {
        if (onClose != null) {
            try {
                onClose.close();
            } catch (Exception e) {
                org.jboss.logging.Logger.getLogger(DatabaseProvider.class).debugf("closing mount %s: %s", mount.name(), e);
            }
        }
    }
}
