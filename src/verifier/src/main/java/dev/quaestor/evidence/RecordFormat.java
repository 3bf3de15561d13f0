package dev.quaestor.evidence;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The canonical bytes of an audit record (docs/audit-format.md, section 1): what is hashed into the
 * log, what a proof file carries, and what the verifier recomputes. Version 2 is written today;
 * version 1 is read, so that logs begun before it stay verifiable.
 */
public final class RecordFormat {

    public static final String V2 = "2";
    public static final String V1 = "v1";

    /** The version-2 fields, in canonical order. Changing this list is a new format version. */
    public static final List<String> FIELDS = List.of("v", "log", "seq", "time", "request", "kind", "session",
            "correlation", "subject", "client", "tenant", "roles", "ip", "ua", "client_info", "auth_context", "protocol",
            "method", "action", "uri", "decision", "rules", "revision", "outcome", "error", "bytes", "items", "sha256",
            "cache_scope", "latency_us", "count", "first", "last", "detail");

    /** The version-1 fields, in canonical order. */
    public static final List<String> FIELDS_V1 = List.of("v", "chain", "seq", "prev", "time", "request", "kind",
            "session", "subject", "client", "tenant", "roles", "ip", "ua", "method", "action", "uri", "decision", "rules",
            "revision", "outcome", "error", "bytes", "items", "sha256", "latency_us", "detail");

    private RecordFormat() {
    }

    /** The record's canonical bytes under the version its {@code v} field names. */
    public static byte[] canonical(Map<String, String> record) {
        String v = record.get("v");
        if (V2.equals(v)) {
            return canonicalV2(record);
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

    /** {@code name "=" "-" "\n"} for an absent field, {@code name "=" utf8Length ":" value "\n"} otherwise. */
    static byte[] canonicalV2(Map<String, String> record) {
        var out = new ByteArrayOutputStream(512);
        for (String f : FIELDS) {
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
     * Reads version-2 canonical bytes back into fields (absent ones left out), strictly: the fields
     * must be exactly those of {@link #FIELDS}, in order, and nothing may follow the last.
     */
    public static Map<String, String> parse(byte[] canonical) {
        var out = new LinkedHashMap<String, String>();
        int at = 0;
        for (String f : FIELDS) {
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
        if (!V2.equals(out.get("v"))) {
            throw new IllegalArgumentException("record bytes: not format version 2");
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
        Set<String> known = fields == FIELDS_V1 ? KNOWN_V1 : fields == FIELDS ? KNOWN : Set.copyOf(fields);
        for (String name : record.keySet()) {
            if (!known.contains(name)) {
                return name;
            }
        }
        return null;
    }

    private static final Set<String> KNOWN = Set.copyOf(FIELDS);
    private static final Set<String> KNOWN_V1 = Set.copyOf(FIELDS_V1);

    private static boolean startsWith(byte[] a, int at, byte[] prefix) {
        for (int i = 0; i < prefix.length; i++) {
            if (a[at + i] != prefix[i]) {
                return false;
            }
        }
        return true;
    }
}
