package dev.quaestor.evidence;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The canonical bytes of an audit record (docs/audit-format.md, section 1): what is hashed into the
 * log, what a proof file carries, and what the verifier recomputes. A record is written in version 2,
 * or in version 3 when it carries the fields only version 3 has (the URIs a summary of refused attempts
 * stands for); version 1 is read, so that logs begun before version 2 stay verifiable.
 */
public final class RecordFormat {

    public static final String V3 = "3";
    public static final String V2 = "2";
    public static final String V1 = "v1";

    /** The version-2 fields, in canonical order. Changing this list is a new format version. */
    public static final List<String> FIELDS = List.of("v", "log", "seq", "time", "request", "kind", "session",
            "correlation", "subject", "client", "tenant", "roles", "ip", "ua", "client_info", "auth_context", "protocol",
            "method", "action", "uri", "decision", "rules", "revision", "outcome", "error", "bytes", "items", "sha256",
            "cache_scope", "latency_us", "count", "first", "last", "detail");

    /**
     * The version-3 fields, in canonical order: version 2's, with {@code uris} and {@code uris_more} (what a
     * summary's events named) before {@code detail}. Encoded and hashed exactly as version 2.
     */
    public static final List<String> FIELDS_V3 = List.of("v", "log", "seq", "time", "request", "kind", "session",
            "correlation", "subject", "client", "tenant", "roles", "ip", "ua", "client_info", "auth_context", "protocol",
            "method", "action", "uri", "decision", "rules", "revision", "outcome", "error", "bytes", "items", "sha256",
            "cache_scope", "latency_us", "count", "first", "last", "uris", "uris_more", "detail");

    /** The version-1 fields, in canonical order. */
    public static final List<String> FIELDS_V1 = List.of("v", "chain", "seq", "prev", "time", "request", "kind",
            "session", "subject", "client", "tenant", "roles", "ip", "ua", "method", "action", "uri", "decision", "rules",
            "revision", "outcome", "error", "bytes", "items", "sha256", "latency_us", "detail");

    private RecordFormat() {
    }

    /** The fields of a format version, in canonical order; null for a version this code does not know. */
    public static List<String> fieldsOf(String version) {
        if (V2.equals(version)) {
            return FIELDS;
        }
        if (V3.equals(version)) {
            return FIELDS_V3;
        }
        return V1.equals(version) ? FIELDS_V1 : null;
    }

    /** The lowest version that holds every field of {@code record} (2 or 3): what a writer writes it in. */
    public static String versionFor(Map<String, String> record) {
        return record.get("uris") != null || record.get("uris_more") != null ? V3 : V2;
    }

    /** The record's canonical bytes under the version its {@code v} field names. */
    public static byte[] canonical(Map<String, String> record) {
        String v = record.get("v");
        if (V2.equals(v) || V3.equals(v)) {
            return canonicalV2(record, fieldsOf(v));
        }
        if (V1.equals(v)) {
            return canonicalV1(record).getBytes(StandardCharsets.UTF_8);
        }
        throw new IllegalArgumentException("unknown record format version: " + v);
    }

    /** RFC 6962 leaf hash of the record: SHA-256(0x00 || canonical bytes). */
    public static byte[] leafHash(Map<String, String> record) {
        return TreeHash.leaf(canonical(record));
    }

    /**
     * {@code name "=" "-" "\n"} for an absent field, {@code name "=" utf8Length ":" value "\n"} otherwise, for each
     * of {@code fields} (version 2's or version 3's).
     */
    static byte[] canonicalV2(Map<String, String> record, List<String> fields) {
        var out = new ByteArrayOutputStream(512);
        for (String f : fields) {
            String value = record.get(f);
            out.writeBytes(f.getBytes(StandardCharsets.US_ASCII));
            out.write('=');
            if (value == null) {
                out.write('-');
            } else {
                byte[] b = value.getBytes(StandardCharsets.UTF_8);
                out.writeBytes(Integer.toString(b.length).getBytes(StandardCharsets.US_ASCII));
                out.write(':');
                out.writeBytes(b);
            }
            out.write('\n');
        }
        return out.toByteArray();
    }

    /** Version 1: {@code name ":" "~" "\n"} when absent, {@code name ":" utf16Length ":" value "\n"} otherwise. */
    static String canonicalV1(Map<String, String> record) {
        var sb = new StringBuilder(512);
        for (String f : FIELDS_V1) {
            String v = record.get(f);
            sb.append(f).append(':');
            if (v == null) {
                sb.append('~');
            } else {
                sb.append(v.length()).append(':').append(v);
            }
            sb.append('\n');
        }
        return sb.toString();
    }

    /** The version-1 stored hash: hex SHA-256 of the canonical text (without the leaf prefix). */
    public static String hashV1(Map<String, String> record) {
        return Hex.of(TreeHash.sha256(canonicalV1(record).getBytes(StandardCharsets.UTF_8)));
    }

    /**
     * Reads version-2 or version-3 canonical bytes back into fields (absent ones left out), strictly: the
     * fields must be exactly those of the version the first one names ({@link #FIELDS} or {@link #FIELDS_V3}),
     * in order, and nothing may follow the last.
     */
    public static Map<String, String> parse(byte[] canonical) {
        List<String> fields = startsWith(canonical, 0, V3_START) ? FIELDS_V3 : FIELDS;
        var out = new LinkedHashMap<String, String>();
        int at = 0;
        for (String f : fields) {
            byte[] name = f.getBytes(StandardCharsets.US_ASCII);
            if (at + name.length + 2 > canonical.length || !startsWith(canonical, at, name) || canonical[at + name.length] != '=') {
                throw new IllegalArgumentException("record bytes: expected field '" + f + "' at byte " + at);
            }
            at += name.length + 1;
            if (canonical[at] == '-') {
                at++;
            } else {
                int colon = at;
                while (colon < canonical.length && canonical[colon] >= '0' && canonical[colon] <= '9') {
                    colon++;
                }
                if (colon == at || colon - at > 9 || colon >= canonical.length || canonical[colon] != ':'
                        || (canonical[at] == '0' && colon - at > 1)) {
                    throw new IllegalArgumentException("record bytes: bad length of field '" + f + "'");
                }
                int len = Integer.parseInt(new String(canonical, at, colon - at, StandardCharsets.US_ASCII));
                at = colon + 1;
                if (at + len > canonical.length) {
                    throw new IllegalArgumentException("record bytes: field '" + f + "' runs past the end");
                }
                out.put(f, new String(canonical, at, len, StandardCharsets.UTF_8));
                at += len;
            }
            if (at >= canonical.length || canonical[at] != '\n') {
                throw new IllegalArgumentException("record bytes: field '" + f + "' does not end with a newline");
            }
            at++;
        }
        if (at != canonical.length) {
            throw new IllegalArgumentException("record bytes: " + (canonical.length - at) + " bytes after the last field");
        }
        if (fields != fieldsOf(out.get("v"))) {
            throw new IllegalArgumentException("record bytes: not format version 2 or 3");
        }
        return out;
    }

    /**
     * Reads version-1 canonical bytes back into fields (absent ones left out), strictly: every field of
     * {@link #FIELDS_V1} in order, lengths in UTF-16 code units, nothing after the last.
     */
    public static Map<String, String> parseV1(byte[] canonical) {
        String s;
        try {
            s = StandardCharsets.UTF_8.newDecoder().onMalformedInput(java.nio.charset.CodingErrorAction.REPORT)
                    .onUnmappableCharacter(java.nio.charset.CodingErrorAction.REPORT)
                    .decode(java.nio.ByteBuffer.wrap(canonical)).toString();
        } catch (java.nio.charset.CharacterCodingException e) {
            throw new IllegalArgumentException("record bytes: not UTF-8");
        }
        var out = new LinkedHashMap<String, String>();
        int at = 0;
        for (String f : FIELDS_V1) {
            if (!s.startsWith(f + ":", at)) {
                throw new IllegalArgumentException("record bytes: expected field '" + f + "' at character " + at);
            }
            at += f.length() + 1;
            if (s.startsWith("~", at)) {
                at++;
            } else {
                int colon = at;
                while (colon < s.length() && s.charAt(colon) >= '0' && s.charAt(colon) <= '9') {
                    colon++;
                }
                if (colon == at || colon - at > 9 || colon >= s.length() || s.charAt(colon) != ':'
                        || (s.charAt(at) == '0' && colon - at > 1)) {
                    throw new IllegalArgumentException("record bytes: bad length of field '" + f + "'");
                }
                int len = Integer.parseInt(s.substring(at, colon));
                at = colon + 1;
                if (at + len > s.length()) {
                    throw new IllegalArgumentException("record bytes: field '" + f + "' runs past the end");
                }
                out.put(f, s.substring(at, at + len));
                at += len;
            }
            if (at >= s.length() || s.charAt(at) != '\n') {
                throw new IllegalArgumentException("record bytes: field '" + f + "' does not end with a newline");
            }
            at++;
        }
        if (at != s.length()) {
            throw new IllegalArgumentException("record bytes: text after the last field");
        }
        if (!V1.equals(out.get("v"))) {
            throw new IllegalArgumentException("record bytes: not format version 1");
        }
        return out;
    }

    /** Reads canonical bytes of either version, as their first field says. */
    public static Map<String, String> parseAny(byte[] canonical) {
        return canonical.length > 2 && canonical[0] == 'v' && canonical[1] == ':' ? parseV1(canonical) : parse(canonical);
    }

    /** The first name in {@code record} that is not one of {@code fields} (a format's field list), or null. */
    public static String unknownField(Map<String, String> record, List<String> fields) {
        Set<String> known = fields == FIELDS_V1 ? KNOWN_V1 : fields == FIELDS ? KNOWN : fields == FIELDS_V3 ? KNOWN_V3
                : Set.copyOf(fields);
        for (String name : record.keySet()) {
            if (!known.contains(name)) {
                return name;
            }
        }
        return null;
    }

    private static final Set<String> KNOWN = Set.copyOf(FIELDS);
    private static final Set<String> KNOWN_V1 = Set.copyOf(FIELDS_V1);
    private static final Set<String> KNOWN_V3 = Set.copyOf(FIELDS_V3);
    private static final byte[] V3_START = "v=1:3\n".getBytes(StandardCharsets.US_ASCII);

    private static boolean startsWith(byte[] a, int at, byte[] prefix) {
        if (a.length - at < prefix.length) {
            return false;
        }
        for (int i = 0; i < prefix.length; i++) {
            if (a[at + i] != prefix[i]) {
                return false;
            }
        }
        return true;
    }
}
