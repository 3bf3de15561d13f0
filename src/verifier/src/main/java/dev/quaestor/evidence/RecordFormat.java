package dev.quaestor.evidence;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/**
 * The canonical bytes of a record (docs/audit-format.md, section 1): what is hashed, what a proof carries, what the
 * verifier recomputes. Version 3 only for a record with its fields (a refusal summary's URIs), else 2; they mix in a
 * log. Version 1, for older logs, is {@code v1.V1Record}.
 */
public final class RecordFormat {

    public static final String V3 = "3";
    public static final String V2 = "2";

    /** The version-2 fields, in canonical order: {@link RecordField}'s, but those only version 3 has. */
    public static final List<String> FIELDS = Arrays.stream(RecordField.values()).filter(f -> !f.versionThreeOnly())
            .map(RecordField::formatName).toList();

    /** The version-3 fields, in canonical order: every {@link RecordField}; encoded and hashed as version 2. */
    public static final List<String> FIELDS_V3 = Arrays.stream(RecordField.values()).map(RecordField::formatName).toList();

    private RecordFormat() {
    }

    /** Whether {@code version} is one this class encodes (2 or 3). */
    public static boolean isCurrent(String version) {
        return V2.equals(version) || V3.equals(version);
    }

    /** The fields of version 2 or 3, in canonical order; null for any other version. */
    public static List<String> fieldsOf(String version) {
        return V2.equals(version) ? FIELDS : V3.equals(version) ? FIELDS_V3 : null;
    }

    /** The lowest version that holds every field of {@code record} (2 or 3): what a writer writes it in. */
    public static String versionFor(Map<String, String> record) {
        return record.get("uris") != null || record.get("uris_more") != null ? V3 : V2;
    }

    /** The record's canonical bytes; its {@code v} field must be {@code 2} or {@code 3}. */
    public static byte[] canonical(Map<String, String> record) {
        return canonical((Function<String, String>) record::get);
    }

    /** The canonical bytes of the record whose fields {@code field} gives by name (null: absent); {@code v} must be 2 or 3. */
    public static byte[] canonical(Function<String, String> field) {
        String v = field.apply("v");
        List<String> fields = fieldsOf(v);
        if (fields == null) {
            throw new IllegalArgumentException("not a record in format version 2 or 3: v=" + v);
        }
        return canonical(field, fields);
    }

    /** RFC 6962 leaf hash of the record: SHA-256(0x00 || canonical bytes). */
    public static byte[] leafHash(Map<String, String> record) {
        return TreeHash.leaf(canonical(record));
    }

    /** RFC 6962 leaf hash of the record whose fields {@code field} gives by name. */
    public static byte[] leafHash(Function<String, String> field) {
        return TreeHash.leaf(canonical(field));
    }

    /** {@code name "=" "-" "\n"} if absent, else {@code name "=" utf8Length ":" value "\n"}, for each of {@code fields}. */
    private static byte[] canonical(Function<String, String> record, List<String> fields) {
        var out = new ByteArrayOutputStream(512);
        for (String f : fields) {
            String value = record.apply(f);
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

    /** Reads version-2 or 3 canonical bytes into fields (absent left out), strictly: exactly that version's, in order. */
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

    /** The first name in {@code record} that its version (3 if it says so, else 2) does not define, or null. */
    public static String unknownField(Map<String, String> record) {
        Set<String> known = V3.equals(record.get("v")) ? KNOWN_V3 : KNOWN;
        return record.keySet().stream().filter(name -> !known.contains(name)).findFirst().orElse(null);
    }

    private static final Set<String> KNOWN = Set.copyOf(FIELDS);
    private static final Set<String> KNOWN_V3 = Set.copyOf(FIELDS_V3);
    private static final byte[] V3_START = "v=1:3\n".getBytes(StandardCharsets.US_ASCII);

    private static boolean startsWith(byte[] a, int at, byte[] prefix) {
        return a.length - at >= prefix.length && Arrays.equals(a, at, at + prefix.length, prefix, 0, prefix.length);
    }
}
