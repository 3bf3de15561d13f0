package dev.quaestor.console;

import dev.quaestor.audit.AuditEvent;
import dev.quaestor.audit.AuditSearch;
import io.quarkus.qute.Location;
import io.quarkus.qute.Template;
import io.quarkus.qute.TemplateInstance;
import io.quarkus.narayana.jta.QuarkusTransaction;
import jakarta.ws.rs.BeanParam;
import jakarta.ws.rs.FormParam;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.net.URI;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;

/** The search page (filters, paging, exports of the search) and saved searches. */
@Path("/console")
@Produces(MediaType.TEXT_HTML)
public class SearchResource {

    static final List<String> ACTIONS = List.of("", "read", "list", "subscribe");
    static final List<String> DECISIONS = List.of("", "ALLOW", "DENY", "FILTER");
    /** A search's totals are counted over at most this many records. */
    static final int TOTALS_CAP = 100_000;
    static final List<String> KINDS = Stream.concat(Stream.of(""), Arrays.stream(AuditEvent.Kind.values()).map(Enum::name)).toList();

    private final AuditSearch records;
    private final ConsoleAccess access;
    private final ConsolePage page;
    private final ConsoleConfig config;
    private final Template search;

    SearchResource(AuditSearch records, ConsoleAccess access, ConsolePage page, ConsoleConfig config,
            @Location("console/search.html") Template search) {
        this.records = records;
        this.access = access;
        this.page = page;
        this.config = config;
        this.search = search;
    }

    @GET
    @Path("search")
    public TemplateInstance search(@BeanParam SearchForm form) {
        access.view(ConsoleAccess.Area.AUDIT, "console/search", form.describe() + (form.cursor == null ? "" : " cursor=" + form.cursor));
        List<RecordRow> rows = List.of();
        String next = null;
        String error = null;
        AuditSearch.Totals totals = null;
        try {
            var query = form.query(config.pageSize());
            var result = records.search(query);
            rows = result.records().stream().map(RecordRow::new).toList();
            next = result.nextCursor();
            totals = records.totals(query, TOTALS_CAP);
        } catch (IllegalArgumentException e) {
            error = e.getMessage();
        }
        return page.of(search, "Search").data("form", form).data("records", rows).data("next", next).data("error", error)
                .data("totals", totals).data("pageEvents", rows.stream().mapToLong(RecordRow::events).sum())
                .data("query", form.queryString()).data("actions", ACTIONS).data("decisions", DECISIONS).data("kinds", KINDS)
                .data("saved", QuarkusTransaction.requiringNew().call(() -> SavedSearch.of(access.identity().subject())));
    }

    @POST
    @Path("searches")
    public Response save(@FormParam("csrf") String csrf, @FormParam("name") String name, @FormParam("query") String query) {
        page.checkCsrf(csrf, "console/search/save");
        access.view(ConsoleAccess.Area.AUDIT, "console/search/save", "name=" + name + " query=" + query);
        if (name == null || name.isBlank() || name.length() > 128 || query == null || query.length() > 4096) {
            return Response.status(400).type(MediaType.TEXT_PLAIN).entity("a name (up to 128 characters) is required").build();
        }
        QuarkusTransaction.requiringNew().run(() -> {
            var s = new SavedSearch();
            s.owner = access.identity().subject();
            s.name = name.strip();
            s.query = query;
            s.createdAt = Instant.now();
            s.persist();
        });
        return Response.seeOther(URI.create("/console/search" + (query.isEmpty() ? "" : "?" + query))).build();
    }

    @POST
    @Path("searches/{id}/delete")
    public Response delete(@PathParam("id") long id, @FormParam("csrf") String csrf) {
        page.checkCsrf(csrf, "console/search/delete");
        access.view(ConsoleAccess.Area.AUDIT, "console/search/delete", "id=" + id);
        String owner = access.identity().subject();
        QuarkusTransaction.requiringNew().run(() -> SavedSearch.delete("id = ?1 and owner = ?2", id, owner));
        return Response.seeOther(URI.create("/console/search")).build();
    }
}
