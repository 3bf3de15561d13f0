package dev.quaestor.console;

import io.quarkus.qute.TemplateData;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** One audit record as the pages show it: every field as text, empty when absent. */
@TemplateData
public record RecordRow(Map<String, String> fields) {

    public String get(String name) {
        String v = fields.get(name);
        return v == null ? "" : v;
    }

    public boolean has(String name) {
        return fields.get(name) != null;
    }

    public String id() {
        return get("id");
    }

    public String request() {
        return get("request");
    }

    public String kind() {
        return get("kind");
    }

    public String time() {
        return get("time");
    }

    public String subject() {
        return get("subject");
    }

    public String uri() {
        return get("uri");
    }

    public String decision() {
        return get("decision");
    }

    public String outcome() {
        return get("outcome");
    }

    /** A summary of refused attempts past an attempt limit: one record standing for {@link #count} refusals. */
    public boolean merged() {
        return "ATTEMPT_SUMMARY".equals(fields.get("kind")) && fields.get("count") != null;
    }

    /** How many events the record stands for: its count if it is a summary, else 1. */
    public long events() {
        return merged() ? Long.parseLong(fields.get("count")) : 1;
    }

    /** One URI of a summary's sample, and how many of its refusals named it. */
    @TemplateData
    public record UriCount(String uri, long count) {
    }

    /** A summary's sample of URIs ({@code uris}: one {@code <count> <uri>} per line), in the order they were kept. */
    public List<UriCount> sample() {
        var out = new ArrayList<UriCount>();
        String uris = fields.get("uris");
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

    /** A CSS class for the row: refused, failed or plain. */
    public String tone() {
        if ("DENY".equals(fields.get("decision")) || "forbidden".equals(fields.get("outcome"))) {
            return "deny";
        }
        String o = fields.get("outcome");
        return o != null && !o.equals("ok") && !o.equals("activated") ? "warn" : "";
    }
}
