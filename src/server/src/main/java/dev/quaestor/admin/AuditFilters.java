package dev.quaestor.admin;

import dev.quaestor.audit.read.AuditQuery;
import jakarta.ws.rs.QueryParam;
import java.util.List;

/**
 * The audit log's search filters as query parameters, named once for the auditor API and the console's search page:
 * who, from where, what and when, and the cursor of the next page. Each reader of them says how it parses them.
 */
public class AuditFilters {

    /** The kinds a record has: what {@code kind} accepts, exactly as written. */
    public static final List<String> KINDS = AuditQuery.KINDS;
    /** The decisions a record has: what {@code decision} accepts, exactly as written. */
    public static final List<String> DECISIONS = AuditQuery.DECISIONS;

    @QueryParam("subject")
    public String subject;
    @QueryParam("client")
    public String client;
    @QueryParam("tenant")
    public String tenant;
    @QueryParam("uriPrefix")
    public String uriPrefix;
    @QueryParam("action")
    public String action;
    @QueryParam("decision")
    public String decision;
    @QueryParam("outcome")
    public String outcome;
    @QueryParam("kind")
    public String kind;
    @QueryParam("from")
    public String from;
    @QueryParam("to")
    public String to;
    @QueryParam("cursor")
    public String cursor;

    /** The filters and cursor given, as a search's record keeps them: {@code name=value} each, or {@code no filter}. */
    public String recorded() {
        var parts = new java.util.StringJoiner(" ");
        String[][] given = {{"subject", subject}, {"client", client}, {"tenant", tenant}, {"uriPrefix", uriPrefix},
                {"action", action}, {"decision", decision}, {"outcome", outcome}, {"kind", kind}, {"from", from}, {"to", to},
                {"cursor", cursor}};
        for (String[] p : given) {
            if (p[1] != null) {
                parts.add(p[0] + "=" + p[1]);
            }
        }
        return parts.length() == 0 ? "no filter" : parts.toString();
    }
}
