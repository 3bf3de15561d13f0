package dev.quaestor.admin;

import dev.quaestor.audit.record.AuditEvent;
import dev.quaestor.audit.read.LongReads;
import dev.quaestor.policy.PolicyError;
import dev.quaestor.policy.PolicyLoader;
import dev.quaestor.policy.PolicySet;
import dev.quaestor.policy.PolicyStore;
import dev.quaestor.policy.PolicyValidationException;
import dev.quaestor.policy.whatif.Fact;
import dev.quaestor.policy.whatif.NamelessReport;
import dev.quaestor.policy.whatif.Replay;
import dev.quaestor.policy.whatif.ReportBuilder;
import dev.quaestor.policy.whatif.WhatIfReport;
import dev.quaestor.policy.whatif.Window;
import io.vertx.core.http.HttpServerRequest;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Policy what-if for administrators: the proposed files replayed against the decisions this server recorded, each
 * under the current set, the proposed set and the revision it was recorded with. On record as an {@code ADMIN} call;
 * a long read of the log, it takes an export's place. Answers the report (as {@code policy what-if --json} writes it),
 * with example request ids for the rows that change, to a caller who also holds the auditor role: who read what is
 * the audit trail's to tell. To an administrator alone, the report without names ({@link NamelessReport}): the
 * changes by recorded roles and URI prefix (at most {@link #NAMELESS_DEPTH} folders deep, short of a person's own
 * folder), as the pull request's comment shows them. A call let in and then refused (400: its body, its window, a
 * window with nothing to judge) gets a second record under its request id, {@code invalid} with why
 * ({@link StaffAccess#notAnswered}), which the answer's {@code X-Request-Id} names.
 */
@Path("/admin/policy/what-if")
@Produces(MediaType.APPLICATION_JSON)
public class WhatIfResource {

    /** The deepest URI prefix a report without names goes to ({@code file:///docs/home/}, not a home folder). */
    static final int NAMELESS_DEPTH = 2;

    /** Rows given example request ids (one query each); further rows have none. */
    static final int ROWS_WITH_EXAMPLES = 100;

    /** What to replay: the proposed files (name to text), a window, examples per row, prefix depth. */
    public record WhatIfRequest(Map<String, String> files, String since, String from, String to, Integer examples,
            Integer depth) {

        String describe() {
            return "files=" + (files == null ? null : new TreeMap<>(files).keySet()) + " since=" + since + " from=" + from
                    + " to=" + to;
        }
    }

    private final PolicyStore store;
    private final RecordedHistory history;
    private final StaffAccess access;
    private final AdminConfig config;
    private final FactsLimit factsLimit;
    private final String auditorRole;
    private final StrictJson json;

    WhatIfResource(PolicyStore store, RecordedHistory history, StaffAccess access, AdminConfig config,
            dev.quaestor.audit.config.AuditConfig audit, StrictJson json) {
        this.json = json;
        this.factsLimit = new FactsLimit(audit.factsLimit());
        this.store = store;
        this.history = history;
        this.access = access;
        this.config = config;
        this.auditorRole = audit.auditorRole();
    }

    @POST
    @Consumes(MediaType.APPLICATION_JSON)
    public Response whatIf(String text, @Context HttpServerRequest http) {
        StrictJson.Read<WhatIfRequest> read = json.read(text, WhatIfRequest.class);
        WhatIfRequest body = read.value();
        var call = new StaffAccess.Call("admin/policy/what-if", body != null ? body.describe()
                : read.refused() ? StrictJson.asSent(text) : null);
        var holding = access.admitHolding(config.role(), AuditEvent.Kind.ADMIN, LongReads.Kind.EXPORT, call, http);
        try (var place = holding.place()) {
            if (read.refused()) {
                return refused(read.response(), read.error());
            }
            if (body == null || body.files() == null || body.files().isEmpty()) {
                return bad("a JSON body with the proposed files is required: {\"files\": {\"name.yaml\": \"…\"}}");
            }
            for (var f : new TreeMap<>(body.files()).entrySet()) {
                if (f.getValue() == null) {
                    return bad("files." + f.getKey() + " is null: give each file's text as a string");
                }
            }
            Window window;
            PolicySet proposed;
            try {
                Instant now = Instant.now();
                window = Window.of(body.since() == null && body.from() == null && body.to() == null ? "30d" : body.since(),
                        body.from(), body.to(), now, new Window(null, Window.endingNow(now)));
                if (window.from() == null) {
                    throw new IllegalArgumentException("give since (e.g. 30d) or from");
                }
                proposed = PolicyLoader.parse(new ArrayList<>(new TreeMap<>(body.files()).entrySet()), new ArrayList<PolicyError>());
            } catch (PolicyValidationException e) {
                return refused(Response.status(400).entity(Map.of("error", "the proposed policy set is rejected",
                        "errors", e.errors().stream().map(Object::toString).toList())).build(), "the proposed policy set is rejected");
            } catch (IllegalArgumentException e) {
                return bad(e.getMessage());
            }
            int examples = bounded(body.examples(), 5, "examples");
            int depth = bounded(body.depth(), NAMELESS_DEPTH, "depth");
            boolean names = holding.admitted().who().roles().contains(auditorRole);
            if (!names && depth > NAMELESS_DEPTH) {
                return bad("depth above " + NAMELESS_DEPTH + " names folders that belong to people: only for a caller who"
                        + " holds the auditor role (" + auditorRole + ") as well");
            }
            List<Fact> facts;
            try {
                facts = factsLimit.gather(history, window.from(), window.to());
            } catch (FactsLimit.Exceeded e) {
                // Admitted on record as a call; that it was not answered is on record too, under its request id.
                String requestId = access.notAnswered("too-large", "not answered: " + e.getMessage());
                return Response.status(413).header("X-Request-Id", requestId).entity(Map.of("error", e.getMessage())).build();
            }
            if (facts.isEmpty()) {
                // A replay of nothing crosses no guard: a gate that judged nothing must not pass a change.
                return bad("no decision is recorded in the window " + window.describe()
                        + ": nothing to judge; give a window (since, or from and to) that holds recorded requests");
            }
            var replay = new Replay(store.current(), proposed, history::revision);
            var built = ReportBuilder.replayed(replay, facts, examples, depth);
            WhatIfReport report = built.build(window.from(), window.to());
            if (!names) {
                return Response.ok(NamelessReport.of(report)).header("X-Request-Id", holding.admitted().requestId()).build();
            }
            int[] asked = {0};
            return Response.ok(report.withExamples(row -> asked[0]++ < ROWS_WITH_EXAMPLES
                    ? history.requestIds(built.sources(row), window.from(), window.to(), examples)
                    : List.of())).header("X-Request-Id", holding.admitted().requestId()).build();
        } catch (IllegalArgumentException e) {
            return bad(e.getMessage());
        }
    }

    private static int bounded(Integer n, int otherwise, String what) {
        if (n == null) {
            return otherwise;
        }
        if (n < 0 || n > 100) {
            throw new IllegalArgumentException(what + " must be from 0 to 100");
        }
        return n;
    }

    private Response bad(String message) {
        return refused(Response.status(400).entity(Map.of("error", message)).build(), message);
    }

    /** A call let in, refused after all: on record as such under its request id ({@code invalid}, why), then answered. */
    private Response refused(Response answer, String why) {
        String requestId = access.notAnswered("invalid", why);
        return Response.fromResponse(answer).header("X-Request-Id", requestId).build();
    }
}
