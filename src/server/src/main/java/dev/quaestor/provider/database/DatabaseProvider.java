package dev.quaestor.provider.database;

import dev.quaestor.provider.ContentTooLargeException;
import dev.quaestor.provider.CursorCodec;
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
 * {@code list-sql}.
 */
final class DatabaseProvider implements ResourceProvider {

    private final Mount mount;
    private final List<QueryDefinition> queries;
    private final ReadOnlyQueries db;
    private final long maxBytes;
    private final int maxRows;
    private final AutoCloseable onClose;

    DatabaseProvider(Mount mount, javax.sql.DataSource dataSource, AutoCloseable onClose) {
        this.mount = mount;
        this.queries = QueryDefinition.allOf(mount);
        this.db = new ReadOnlyQueries(dataSource, mount.durationSetting("statement-timeout", Duration.ofSeconds(5)));
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

    // --- listing: each query's list-sql, in query name order, paged by offset ---------------------

    @Override
    public Page<ResourceEntry> list(String cursor, int limit) {
        int queryIndex = 0;
        int offset = 0;
        if (cursor != null) {
            String[] c = decodeCursor(cursor);
            queryIndex = indexOf(c[0]);
            try {
                offset = Integer.parseInt(c[1]);
            } catch (NumberFormatException e) {
                throw new InvalidCursorException();
            }
            if (offset < 0) {
                throw new InvalidCursorException();
            }
        }
        var out = new ArrayList<ResourceEntry>(limit);
        for (; queryIndex < queries.size(); queryIndex++, offset = 0) {
            QueryDefinition q = queries.get(queryIndex);
            if (q.listSql() == null && !q.template().variables().isEmpty()) {
                continue;
            }
            int want = limit - out.size();
            List<ResourceEntry> rows = listQuery(q, offset, want + 1);
            if (rows.size() > want) {
                out.addAll(rows.subList(0, want));
                return new Page<>(out, encodeCursor(q.name(), offset + want));
            }
            out.addAll(rows);
            if (out.size() == limit) {
                // The page is full exactly at the end of this query; continue with the next one.
                return queryIndex + 1 < queries.size() ? new Page<>(out, encodeCursor(queries.get(queryIndex + 1).name(), 0))
                        : new Page<>(out, null);
            }
        }
        return new Page<>(out, null);
    }

    private List<ResourceEntry> listQuery(QueryDefinition q, int offset, int count) {
        if (q.listSql() == null) {
            // A template without variables is one fixed resource.
            if (offset > 0) {
                return List.of();
            }
            CanonicalUri u = canonical(q.template().expand(Map.of()));
            return u == null ? List.of() : List.of(new ResourceEntry(u, q.name(), q.title(), q.description(), q.mimeType(), null, null));
        }
        try {
            return db.run(q.listSql(), List.of(), offset + count, rs -> {
                var out = new ArrayList<ResourceEntry>(count);
                ResultSetMetaData md = rs.getMetaData();
                int row = 0;
                while (rs.next()) {
                    if (row++ < offset) {
                        continue;
                    }
                    var values = new HashMap<String, String>();
                    for (int i = 1; i <= md.getColumnCount(); i++) {
                        String label = md.getColumnLabel(i);
                        for (String v : q.template().variables()) {
                            if (v.equalsIgnoreCase(label)) {
                                values.put(v, rs.getString(i));
                            }
                        }
                    }
                    CanonicalUri u = values.keySet().containsAll(q.template().variables()) && !values.containsValue(null)
                            ? canonical(q.template().expand(values)) : null;
                    if (u != null) {
                        String name = u.segments().isEmpty() ? q.name() : u.segments().get(u.segments().size() - 1);
                        out.add(new ResourceEntry(u, name, q.title(), q.description(), q.mimeType(), null, null));
                    }
                }
                return out;
            });
        } catch (SQLException e) {
            throw new IllegalStateException("mount '" + mount.name() + "', list-sql of '" + q.name() + "' failed: "
                    + e.getMessage(), e);
        }
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

    private static String encodeCursor(String query, int offset) {
        return CursorCodec.encode("d1", query, Integer.toString(offset));
    }

    private static String[] decodeCursor(String cursor) {
        return CursorCodec.decode(cursor, "d1", 2).toArray(String[]::new);
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
