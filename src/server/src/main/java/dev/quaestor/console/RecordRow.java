package dev.quaestor.console;

import dev.quaestor.audit.record.AuditRow;
import io.quarkus.qute.TemplateData;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;

/** One audit record as the pages show it: every field as text, empty when absent; its time in {@code zone} too. */
@TemplateData
public record RecordRow(AuditRow row, ZoneId zone) {

    /** A record whose time is shown in UTC. */
    public RecordRow(AuditRow row) {
        this(row, ZoneOffset.UTC);
    }

    /** The record's time in the reader's zone, with UTC beside it. */
    public ShownTime shown() {
        return row.time() == null ? ShownTime.NONE : ShownTime.of(row.time(), zone);
    }

    /**
     * A field as a page lists it ({@link FieldLabel}): error codes with what they mean (any character that cannot be
     * seen is made visible as every page value is, by {@link VisibleHtml}).
     */
    public String value(FieldLabel f) {
        return f.shown(get(f.name()), refusedBeforePolicy());
    }

    /** Whether this is the {@code DECISION} of a request refused before the policy was asked about it. */
    public boolean refusedBeforePolicy() {
        return kind().equals("DECISION") && FieldLabel.beforePolicy(this);
    }

    /** A field by its format name, for pages that list every field ({@link FieldLabel#ALL}). */
    public String get(String name) {
        return text(row.text(name));
    }

    /** Whether the record holds the field named. */
    public boolean has(String name) {
        return row.text(name) != null;
    }

    public String id() {
        return row.id() == null ? "" : row.id().toString();
    }

    public String request() {
        return text(row.request());
    }

    public String kind() {
        return text(row.text(dev.quaestor.evidence.RecordField.KIND));
    }

    public String time() {
        return text(row.text(dev.quaestor.evidence.RecordField.TIME));
    }

    public String subject() {
        return text(row.subject());
    }

    public boolean hasSubject() {
        return row.subject() != null;
    }

    public String client() {
        return text(row.client());
    }

    /** The MCP client's declared {@code name/version} ({@code clientInfo}), empty when it declared none. */
    public String clientInfo() {
        return text(row.clientInfo());
    }

    public String action() {
        return text(row.action());
    }

    public String method() {
        return text(row.method());
    }

    public String uri() {
        return text(row.uri());
    }

    public boolean hasUri() {
        return row.uri() != null;
    }

    public String decision() {
        return text(row.text(dev.quaestor.evidence.RecordField.DECISION));
    }

    public String revision() {
        return text(row.revision());
    }

    public String rules() {
        return text(row.rules());
    }

    public String outcome() {
        return text(row.outcome());
    }

    public String bytes() {
        return text(row.text(dev.quaestor.evidence.RecordField.BYTES));
    }

    public String sha256() {
        return text(row.sha256());
    }

    public boolean hasSha256() {
        return row.sha256() != null;
    }

    /** Bytes served and their SHA-256: a read, an export, a bundle. */
    public boolean hasServedBytes() {
        return row.sha256() != null && row.text(dev.quaestor.evidence.RecordField.BYTES) != null;
    }

    /** Entries listed and the SHA-256 of their URIs (or values), each followed by a line feed: a listing. */
    public boolean hasListedDigest() {
        return row.sha256() != null && row.text(dev.quaestor.evidence.RecordField.BYTES) == null
                && row.text(dev.quaestor.evidence.RecordField.ITEMS) != null;
    }

    public String items() {
        return text(row.text(dev.quaestor.evidence.RecordField.ITEMS));
    }

    public String count() {
        return text(row.text(dev.quaestor.evidence.RecordField.COUNT));
    }

    public String first() {
        return text(row.text(dev.quaestor.evidence.RecordField.FIRST));
    }

    public String last() {
        return text(row.text(dev.quaestor.evidence.RecordField.LAST));
    }

    public boolean hasUris() {
        return row.uris() != null;
    }

    public String urisMore() {
        return text(row.text(dev.quaestor.evidence.RecordField.URIS_MORE));
    }

    /** A summary of refused attempts past an attempt limit: one record standing for {@link #count} refusals. */
    public boolean merged() {
        return row.isSummary();
    }

    /** How many events the record stands for: its count if it is a summary, else 1. */
    public long events() {
        return merged() ? row.count() : 1;
    }

    /** One URI of a summary's sample, and how many of its refusals named it. */
    @TemplateData
    public record UriCount(String uri, long count) {
    }

    /** A summary's sample of URIs ({@code uris}: one {@code <count> <uri>} per line), in the order they were kept. */
    public List<UriCount> sample() {
        var out = new ArrayList<UriCount>();
        String uris = row.uris();
        if (uris != null) {
            for (String line : uris.split("\n")) {
                int space = line.indexOf(' ');
                if (space > 0) {
                    out.add(new UriCount(line.substring(space + 1), Long.parseLong(line.substring(0, space))));
                }
            }
        }
        return out;
    }

    /** Whether the record was changed after it was written: its fields no longer hash to its stored hash. */
    public boolean altered() {
        return !row.matchesItsHash();
    }

    /** A CSS class for the row: refused, failed or plain. */
    public String tone() {
        if (row.decision() == AuditRow.Decision.DENY || "forbidden".equals(row.outcome())) {
            return "deny";
        }
        String o = row.outcome();
        return o != null && !o.equals("ok") && !o.equals("activated") ? "warn" : "";
    }

    private static String text(String v) {
        return v == null ? "" : v;
    }
}
