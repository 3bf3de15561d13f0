package dev.quaestor.evidence;

import dev.quaestor.evidence.v1.V1Record;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Stream;

/**
 * A record as the checks see it: its canonical bytes (section 1.1, or 1.3 for version 1) and the fields they look at
 * (version, log, seq, time, version 1's prev); made from fields or, by the fast reader, from the bytes.
 */
public final class CanonicalRecord {

    private static final List<String> ALL_NAMES = Stream.concat(V1Record.FIELDS.stream(), RecordFormat.FIELDS_V3.stream())
            .distinct().toList();

    private final String version;
    private final String log;
    private final String seq;
    private final String time;
    private final String prev;
    private final String unknownField;
    private final byte[] canonical;
    private Map<String, String> fields;
    private byte[] leaf;
    private byte[] v1Hash;

    private CanonicalRecord(String version, String log, String seq, String time, String prev, String unknownField,
            byte[] canonical, Map<String, String> fields) {
        this.version = version;
        this.log = log;
        this.seq = seq;
        this.time = time;
        this.prev = prev;
        this.unknownField = unknownField;
        this.canonical = canonical;
        this.fields = fields;
    }

    /** From a record's fields (absent ones left out). */
    public static CanonicalRecord of(Map<String, String> fields) {
        String v = fields.get("v");
        if (V1Record.VERSION.equals(v)) {
            return new CanonicalRecord(v, fields.get("chain"), fields.get("seq"), fields.get("time"), fields.get("prev"),
                    V1Record.unknownField(fields), V1Record.canonical(fields), fields);
        }
        boolean known = RecordFormat.isCurrent(v);
        return new CanonicalRecord(v, fields.get("log"), fields.get("seq"), fields.get("time"), null, known ? RecordFormat.unknownField(fields) : null,
                known ? RecordFormat.canonical(fields) : null, fields);
    }

    /** From a record's fields by name (null: absent); every name of versions 1 to 3 is asked, to see one its version lacks. */
    public static CanonicalRecord of(Function<String, String> field) {
        var fields = new LinkedHashMap<String, String>();
        for (String name : ALL_NAMES) {
            String value = field.apply(name);
            if (value != null) {
                fields.put(name, value);
            }
        }
        return of(fields);
    }

    /** From version-2 canonical bytes already built, with the fields they hold that the checks need. */
    public static CanonicalRecord ofV2(byte[] canonical, String log, String seq, String time) {
        return new CanonicalRecord(RecordFormat.V2, log, seq, time, null, null, canonical, null);
    }

    /** A version-2 record known by its leaf hash only (its canonical bytes were hashed and let go). */
    public static CanonicalRecord ofV2Leaf(byte[] leaf, String log, String seq, String time) {
        var r = new CanonicalRecord(RecordFormat.V2, log, seq, time, null, null, null, null);
        r.leaf = leaf;
        return r;
    }

    /** {@code 2}, {@code 3}, {@code v1}, or whatever an unknown record says. */
    public String version() {
        return version;
    }

    /** The log it belongs to ({@code chain} in version 1); null if it names none. */
    public String log() {
        return log;
    }

    public String seq() {
        return seq;
    }

    /** When it happened, as written (null: absent). */
    public String time() {
        return time;
    }

    /** Version 1: the previous record's hash. */
    public String prev() {
        return prev;
    }

    /** A field name the record's format does not define, or null. */
    public String unknownField() {
        return unknownField;
    }

    /** A copy of the canonical bytes; null for a version this verifier does not know, or if only the leaf hash was kept. */
    public byte[] canonical() {
        return canonical == null ? null : canonical.clone();
    }

    public byte[] bytes() {
        return canonical;
    }

    /** SHA-256(0x00 || canonical bytes). */
    public byte[] leaf() {
        if (leaf == null) {
            leaf = TreeHash.leaf(canonical);
        }
        return leaf;
    }

    /** Version 1's stored hash: SHA-256 of the canonical bytes. */
    public byte[] v1Hash() {
        if (v1Hash == null) {
            v1Hash = TreeHash.sha256(canonical);
        }
        return v1Hash;
    }

    /** Computes the hashes the checks will need now (on a worker thread), so that checking does not wait for them. */
    public void hashInAdvance() {
        if (canonical != null) {
            leaf();
            if (V1Record.VERSION.equals(version)) {
                v1Hash();
            }
        }
    }

    /** The record's fields (unless only its leaf hash was kept). */
    public Map<String, String> fields() {
        if (fields == null) {
            fields = parse(canonical);
        }
        return fields;
    }

    /** Reads canonical bytes of either version, as their first field says. */
    public static Map<String, String> parse(byte[] canonical) {
        return V1Record.is(canonical) ? V1Record.parse(canonical) : RecordFormat.parse(canonical);
    }
}
