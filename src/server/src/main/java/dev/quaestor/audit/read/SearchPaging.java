package dev.quaestor.audit.read;

/**
 * Which page of a search to read: in which order ({@code newestFirst}), how many records, and where the page starts.
 * {@code FIRST} and {@code LAST} are the ends of the search; {@code AFTER} is the page that follows record {@code id}
 * in that order, {@code BEFORE} the page that ends just before it.
 */
public record SearchPaging(boolean newestFirst, int size, From from, long id) {

    public enum From {
        FIRST, LAST, AFTER, BEFORE
    }

    public SearchPaging {
        size = Math.max(1, Math.min(size, AuditSearch.MAX_PAGE));
    }

    /** Whether the records are read against the page's order (a page before a record, or the last page). */
    boolean backwards() {
        return from == From.LAST || from == From.BEFORE;
    }

    /** The rows' order in SQL: the page's, or its reverse when read backwards. */
    String orderSql() {
        return newestFirst != backwards() ? " ORDER BY id DESC" : " ORDER BY id";
    }

    /** The condition on the id that starts the page after or before {@code id}, or none. */
    String boundSql() {
        return switch (from) {
            case FIRST, LAST -> "";
            case AFTER -> newestFirst ? " AND id < ?" : " AND id > ?";
            case BEFORE -> newestFirst ? " AND id > ?" : " AND id < ?";
        };
    }
}
