package dev.quaestor.evidence.v1;

import dev.quaestor.evidence.Hex;
import dev.quaestor.evidence.TreeHash;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A record in format version 1 (docs/audit-format.md, section 1.3), read so that logs begun before
 * version 2 stay verifiable: its fields, canonical bytes and stored hash. Nothing writes it any more.
 */
public final class V1Record {

    public static final String VERSION = "v1";

    /** The version-1 fields, in canonical order. */
    public static final List<String> FIELDS = List.of("v", "chain", "seq", "prev", "time", "request", "kind",
            "session", "subject", "client", "tenant", "roles", "ip", "ua", "method", "action", "uri", "decision", "rules",
            "revision", "outcome", "error", "bytes", "items", "sha256", "latency_us", "detail");

    private static final Set<String> KNOWN = Set.copyOf(FIELDS);

    private V1Record() {
    }

    /** {@code name ":" "~" "\n"} when absent, {@code name ":" utf16Length ":" value "\n"} otherwise. */
    public static byte[] canonical(Map<String, String> record) {
        var sb = new StringBuilder(512);
        for (String f : FIELDS) {
            String v = record.get(f);
            sb.append(f).append(':');
            if (v == null) {
                sb.append('~');
            } else {
                sb.append(v.length()).append(':').append(v);
            }
            sb.append('\n');
        }
        return sb.toString().getBytes(StandardCharsets.UTF_8);
    }

    /** The stored hash: hex SHA-256 of the canonical bytes (without the leaf prefix). */
    public static String hash(Map<String, String> record) {
        return Hex.of(TreeHash.sha256(canonical(record)));
    }

    /** Whether canonical bytes are version 1's (they start with its first field, {@code v:}). */
    public static boolean is(byte[] canonical) {
        return canonical.length > 2 && canonical[0] == 'v' && canonical[1] == ':';
    }

    /** The first name in {@code record} that version 1 does not define, or null. */
    public static String unknownField(Map<String, String> record) {
        for (String name : record.keySet()) {
            if (!KNOWN.contains(name)) {
                return name;
            }
        }
        return null;
    }

    /**
     * Reads canonical bytes back into fields (absent ones left out), strictly: every field in order,
     * lengths in UTF-16 code units, nothing after the last.
     */
    public static Map<String, String> parse(byte[] canonical) {
        String s;
        try {
            s = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(canonical)).toString();
        } catch (CharacterCodingException e) {
            throw new IllegalArgumentException("record bytes: not UTF-8");
        }
        var out = new LinkedHashMap<String, String>();
        int at = 0;
        for (String f : FIELDS) {
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
        if (!VERSION.equals(out.get("v"))) {
            throw new IllegalArgumentException("record bytes: not format version 1");
        }
        return out;
    }
}
