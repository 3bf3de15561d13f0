package dev.quaestor.admin;

import dev.quaestor.audit.record.AuditEvent;
import dev.quaestor.audit.read.AuditQuery;
import dev.quaestor.audit.read.LongReads;
import dev.quaestor.http.WriteDeadlines;
import dev.quaestor.policy.whatif.Fact;
import dev.quaestor.policy.whatif.FactsFile;
import dev.quaestor.policy.whatif.Window;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.ext.web.RoutingContext;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.StreamingOutput;
import java.io.BufferedWriter;
import java.io.OutputStreamWriter;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The facts export, for auditors: the distinct facts of the policy decisions recorded in a window, each with its
 * number of requests and no request id ({@link FactsFile}). CI replays proposed policy files against it
 * ({@code policy what-if}), so a pipeline never holds audit credentials. On record as an {@code AUDIT_READ}; a long
 * read, it takes an export's place ({@link LongReads}). A window with more facts than may be held is answered 413, and a
 * second record under the call's request id says so ({@code too-large}).
 */
@Path("/audit/facts")
public class AuditFactsResource {

    private final RecordedHistory history;
    private final StaffAccess access;
    private final String auditorRole;
    private final WriteDeadlines deadlines;
    private final FactsLimit limit;

    AuditFactsResource(RecordedHistory history, StaffAccess access, dev.quaestor.audit.config.AuditConfig config,
            WriteDeadlines deadlines) {
        this.history = history;
        this.access = access;
        this.auditorRole = config.auditorRole();
        this.deadlines = deadlines;
        this.limit = new FactsLimit(config.factsLimit());
    }

    @GET
    @Produces({"application/jsonl", MediaType.APPLICATION_JSON})
    public Response export(@QueryParam("since") String since, @QueryParam("from") String from, @QueryParam("to") String to,
            @Context RoutingContext rc) {
        HttpServerRequest request = rc.request();
        String detail = "since=" + shown(since) + " from=" + shown(from) + " to=" + shown(to);
        Window window;
        try {
            QueryCheck.only(request.params(), List.of("since", "from", "to"));
            window = window(since, from, to, Instant.now());
        } catch (InvalidQuery e) {
            return e.response(access.refuse(auditorRole, AuditEvent.Kind.AUDIT_READ, "audit/facts", detail, "invalid", e.getMessage(),
                    request));
        }
        var holding = access.admitHolding(auditorRole, AuditEvent.Kind.AUDIT_READ, LongReads.Kind.EXPORT,
                new StaffAccess.Call("audit/facts", detail), request);
        LongReads.Place place = holding.place();
        AnswerWatch answer = access.answer();
        // Read whole before the answer starts: a read past the audit query timeout is still a 503 saying so, and a
        // slow reader holds no database connection.
        List<Fact> facts;
        try {
            facts = limit.gather(history, window.from(), window.to());
        } catch (FactsLimit.Exceeded e) {
            place.close();
            // Let in, and on record as such: that it was not answered is on record under its request id.
            String why = e.getMessage();
            String requestId = access.notAnswered("too-large", "not answered: " + why);
            return Response.status(413).type(MediaType.APPLICATION_JSON).header("X-Request-Id", requestId)
                    .entity(Map.of("error", why)).build();
        } catch (RuntimeException e) {
            place.close();
            throw e;
        }
        rc.addEndHandler(ended -> place.close());
        StreamingOutput body = out -> {
            try (place; var watch = deadlines.watch(WriteDeadlines.Kind.EXPORT, request, null)) {
                var w = new BufferedWriter(new OutputStreamWriter(watch.wrap(out), StandardCharsets.UTF_8));
                FactsFile.writeHeader(w, window.from(), window.to());
                for (Fact f : facts) {
                    FactsFile.write(w, f);
                }
                w.flush();
            } catch (java.io.UncheckedIOException e) {
                request.response().reset();
                answer.brokeOff("the facts export", e.getCause());
                throw e.getCause();
            } catch (RuntimeException e) {
                request.response().reset();
                answer.brokeOff("the facts export", e);
                throw e;
            }
        };
        return Response.ok(body).type("application/jsonl").header("X-Request-Id", holding.admitted().requestId())
                .header("Content-Disposition", "attachment; filename=\"quaestor-facts.jsonl\"").build();
    }

    private static final String SINCE = "a count of hours or days: 30d, 12h";
    private static final String TIME = "an ISO-8601 time with an offset, e.g. 2026-11-01T00:00:00Z";

    /**
     * The window asked for, each parameter judged on its own first so that a refusal names the one at fault, what it
     * takes and what was given, as every auditor API refusal does ({@link InvalidQuery}).
     */
    static Window window(String since, String from, String to, Instant now) {
        if (since != null && (from != null || to != null)) {
            String other = from != null ? "from" : "to";
            throw InvalidQuery.because("give since or from and to, not both", other, from != null ? from : to,
                    "left out when since is given");
        }
        if (since == null && (from == null || to == null)) {
            throw InvalidQuery.because("give since (e.g. 30d) or both from and to", from == null && to == null ? "since"
                    : from == null ? "from" : "to", null, "since (" + SINCE + "), or both from and to (each " + TIME + ")");
        }
        var open = new Window(null, null);
        Window bySince = judged("since", since, SINCE, () -> Window.of(since, null, null, now, open));
        Window start = judged("from", from, TIME, () -> Window.of(null, from, null, now, open));
        Window end = judged("to", to, TIME, () -> Window.of(null, null, to, now, open));
        if (since != null) {
            askable(bySince.from(), "since", since, SINCE);
            return bySince;
        }
        askable(start.from(), "from", from, TIME);
        askable(end.to(), "to", to, TIME);
        if (!start.from().isBefore(end.to())) {
            throw InvalidQuery.because("'from' (" + quoted(from, start.from()) + ") is not before 'to' (" + quoted(to, end.to())
                    + ")", "from", from, "a time before 'to'");
        }
        return new Window(start.from(), end.to());
    }

    /** The window reaches no time outside those a record can have; else {@link InvalidQuery} naming {@code parameter}. */
    private static void askable(Instant t, String parameter, String value, String accepted) {
        if (!AuditQuery.askable(t)) {
            throw InvalidQuery.because("'" + parameter + "' reaches outside " + AuditQuery.TIMES, parameter, value, accepted);
        }
    }

    /** {@code reading}'s window, or its reason (which quotes the value: cut, as any a refusal quotes) naming {@code parameter}. */
    private static Window judged(String parameter, String value, String accepted, java.util.function.Supplier<Window> reading) {
        try {
            return reading.get();
        } catch (IllegalArgumentException e) {
            String why = e.getMessage().length() <= 256 ? e.getMessage() : e.getMessage().substring(0, 256) + "…";
            throw InvalidQuery.because(why, parameter, value, accepted);
        }
    }

    /** A time as given and, unless it is written as read, as read: {@code 2026-11-02T01:00:00+02:00 = 2026-11-01T23:00:00Z}. */
    private static String quoted(String given, Instant read) {
        return given.equals(read.toString()) ? shown(given) : shown(given) + " = " + read;
    }

    private static String shown(String s) {
        return s == null ? null : InvalidQuery.shown(s);
    }
}
