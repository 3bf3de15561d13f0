package dev.quaestor.audit.record;

import dev.quaestor.evidence.CanonicalRecord;
import dev.quaestor.evidence.Hex;
import dev.quaestor.evidence.RecordField;
import dev.quaestor.evidence.RecordFormat;
import dev.quaestor.evidence.TreeHash;
import dev.quaestor.evidence.v1.V1Record;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.time.OffsetDateTime;

/**
 * A record as its format's text, one value per column of {@link AuditRecords#COLUMNS} (null: absent): what the writer
 * hashes and stores, and what the evidence (export, proofs, the online check) is made of, exactly as stored. Read from
 * a row in one place ({@link #read}) and made from an event in one place ({@link AuditRecords#text}); the typed view
 * of it is {@link AuditRow}.
 */
public final class RecordText {

    private final String[] values;

    /** A record's columns in {@link AuditRecords#COLUMNS}' order (the benchmarks build version-1 records so). */
    public RecordText(String[] values) {
        this.values = values;
    }

    /** A row selected as {@link AuditRecords#COLUMN_LIST}, starting at column {@code first}. */
    public static RecordText read(ResultSet rs, int first) throws SQLException {
        var values = new String[AuditRecords.COLUMNS.size()];
        for (int i = 0; i < values.length; i++) {
            if (AuditRecords.COLUMNS.get(i).sqlType().equals("timestamptz")) {
                OffsetDateTime t = rs.getObject(first + i, OffsetDateTime.class);
                values[i] = t == null ? null : t.toInstant().toString();
            } else {
                values[i] = rs.getString(first + i);
            }
        }
        return new RecordText(values);
    }

    /** The text of a format field as stored (a version-1 record's log too, which that version names {@code chain}). */
    public String value(RecordField field) {
        return values[field.ordinal()];
    }

    /** The stored leaf hash (hex; a version-1 record's own hash). */
    public String hash() {
        return values[AuditRecords.HASH];
    }

    /** A version-1 record's link to the one before it; null for later versions, which have none. */
    String prev() {
        return isVersionOne() ? values[AuditRecords.PREV] : null;
    }

    public String column(int index) {
        return values[index];
    }

    public boolean isVersionOne() {
        return V1Record.VERSION.equals(value(RecordField.V));
    }

    /**
     * A field by the name its record's version gives it: a version-1 record's log as {@code chain} (and no
     * {@code log}) and its {@code prev}; null if absent or not a field.
     */
    public String field(String name) {
        boolean v1 = isVersionOne();
        return switch (name) {
            case "chain" -> v1 ? value(RecordField.LOG) : null;
            case "log" -> v1 ? null : value(RecordField.LOG);
            case "prev" -> prev();
            case "hash" -> hash();
            default -> {
                RecordField f = AuditRecords.FIELD_BY_NAME.get(name);
                yield f == null ? null : value(f);
            }
        };
    }

    /** The record as the evidence classes check and export it. */
    public CanonicalRecord canonical() {
        return CanonicalRecord.of(this::field);
    }

    /** Its canonical bytes (versions 2 and 3). */
    public byte[] canonicalBytes() {
        return RecordFormat.canonical(this::field);
    }

    /** Its leaf hash: the stored one for versions 2 and 3; recomputed for version 1, whose stored hash is another one. */
    byte[] leafHash() {
        return RecordFormat.isCurrent(value(RecordField.V)) ? Hex.hash(hash())
                : TreeHash.leaf(V1Record.canonical(canonical().fields()));
    }

    /**
     * Whether its fields as stored still hash to its stored leaf hash (versions 2 and 3; a version-1 record, whose
     * stored hash is another one and which has no proofs, is not asked). False: the row was changed after it was
     * written, and no evidence may be made of it.
     */
    public boolean matchesItsHash() {
        if (!RecordFormat.isCurrent(value(RecordField.V))) {
            return true;
        }
        try {
            return java.security.MessageDigest.isEqual(TreeHash.leaf(canonicalBytes()), Hex.hash(hash()));
        } catch (RuntimeException e) {
            return false; // a stored hash that is not 64 hex digits, or fields the format cannot write, match nothing
        }
    }

    /** Why no evidence is made of it: {@link #matchesItsHash} is false. */
    public String alteredSince() {
        return "record " + value(RecordField.SEQ) + " of log " + value(RecordField.LOG) + " no longer hashes to the leaf"
                + " hash stored with it: the row was changed after it was written, and nothing is proven from it (the"
                + " audit check, /audit/verify, reports the log's state)";
    }

    /** The text of an instant as the format writes it. */
    static String instant(Instant t) {
        return t == null ? null : t.toString();
    }
}
