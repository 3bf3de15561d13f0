package dev.quaestor.console;

import io.quarkus.qute.TemplateData;
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

    /** A CSS class for the row: refused, failed or plain. */
    public String tone() {
        if ("DENY".equals(fields.get("decision")) || "forbidden".equals(fields.get("outcome"))) {
            return "deny";
        }
        String o = fields.get("outcome");
        return o != null && !o.equals("ok") && !o.equals("activated") ? "warn" : "";
    }
}
