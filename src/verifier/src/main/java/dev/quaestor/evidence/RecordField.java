package dev.quaestor.evidence;

/**
 * The fields of a record in canonical order (docs/audit-format.md, section 1), the one list of them: version 3 has all,
 * version 2 all but {@link #versionThreeOnly()}. Changing this list is a new format version.
 */
public enum RecordField {
    V("v", Text.VERSION),
    LOG("log", Text.TEXT),
    SEQ("seq", Text.DECIMAL),
    TIME("time", Text.INSTANT),
    REQUEST("request", Text.TEXT),
    KIND("kind", Text.NAME),
    SESSION("session", Text.TEXT),
    CORRELATION("correlation", Text.TEXT),
    SUBJECT("subject", Text.TEXT),
    CLIENT("client", Text.TEXT),
    TENANT("tenant", Text.TEXT),
    ROLES("roles", Text.TEXT),
    IP("ip", Text.TEXT),
    UA("ua", Text.TEXT),
    CLIENT_INFO("client_info", Text.TEXT),
    AUTH_CONTEXT("auth_context", Text.TEXT),
    PROTOCOL("protocol", Text.TEXT),
    METHOD("method", Text.TEXT),
    ACTION("action", Text.TEXT),
    URI("uri", Text.TEXT),
    DECISION("decision", Text.NAME),
    RULES("rules", Text.TEXT),
    REVISION("revision", Text.TEXT),
    OUTCOME("outcome", Text.TEXT),
    ERROR("error", Text.DECIMAL),
    BYTES("bytes", Text.DECIMAL),
    ITEMS("items", Text.DECIMAL),
    SHA256("sha256", Text.TEXT),
    CACHE_SCOPE("cache_scope", Text.TEXT),
    LATENCY_US("latency_us", Text.DECIMAL),
    COUNT("count", Text.DECIMAL),
    FIRST("first", Text.INSTANT),
    LAST("last", Text.INSTANT),
    URIS("uris", Text.TEXT),
    URIS_MORE("uris_more", Text.DECIMAL),
    DETAIL("detail", Text.TEXT);

    /**
     * What a field's text holds, as the format's table says: the version (2 or 3), free text, one of a set of names (an
     * event kind, a decision), a decimal integer, a UTC instant as {@code Instant#toString} prints it (microseconds).
     */
    public enum Text { VERSION, TEXT, NAME, DECIMAL, INSTANT }

    private final String formatName;
    private final Text kind;

    RecordField(String formatName, Text kind) {
        this.formatName = formatName;
        this.kind = kind;
    }

    /** The field's name in canonical bytes and exports. */
    public String formatName() {
        return formatName;
    }

    public Text kind() {
        return kind;
    }

    /** Whether only version 3 has the field (what a summary of refused attempts' events named). */
    public boolean versionThreeOnly() {
        return this == URIS || this == URIS_MORE;
    }
}
