package dev.quaestor.evidence;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The canonical bytes of an audit record (docs/audit-format.md, section 1): what is hashed into the
 * log, what a proof file carries, and what the verifier recomputes. Version 2 is the one written;
 * version 1, read so that older logs stay verifiable, is {@code dev.quaestor.evidence.v1.V1Record}.
 */
public final class RecordFormat {

    public static final String V2 = "2";

    /** The version-2 fields, in canonical order. Changing this list is a new format version. */
    public static final List<String> FIELDS = List.of("v", "log", "seq", "time", "request", "kind", "session",
            "correlation", "subject", "client", "tenant", "roles", "ip", "ua", "client_info", "auth_context", "protocol",
            "method", "action", "uri", "decision", "rules", "revision", "outcome", "error", "bytes", "items", "sha256",
            "cache_scope", "latency_us", "count", "first", "last", "detail");

    private RecordFormat() {
    }

    /** The record's canonical bytes; its {@code v} field must be {@code 2}. */
    public static byte[] canonical(Map<String, String> record) {
        String v = record.get("v");
        if (!V2.equals(v)) {
            throw new IllegalArgumentException("not a record in format version 2: v=" + v);
        }
        return canonicalV2(record);
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

    /** The first name in {@code record} that version 2 does not define, or null. */
    public static String unknownField(Map<String, String> record) {
        for (String name : record.keySet()) {
            if (!KNOWN.contains(name)) {
                return name;
            }
        }
        return null;
    }

    private static final Set<String> KNOWN = Set.copyOf(FIELDS);

    private static boolean startsWith(byte[] a, int at, byte[] prefix) {
        for (int i = 0; i < prefix.length; i++) {
            if (a[at + i] != prefix[i]) {
                return false;
            }
        }
        return true;
    }
}
