package dev.quaestor.audit.refusals;

import dev.quaestor.audit.record.AuditEvent;
import dev.quaestor.audit.record.Caller;
import dev.quaestor.audit.record.UriTally;

import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.TreeSet;
import java.util.function.Function;

/**
 * The refusals of one merge window, counted into one {@code ATTEMPT_SUMMARY}: how many, the first and last time,
 * the URIs they named ({@link UriTally}), and every other field the refusals' own records would have held, kept
 * where all of them agree and left out where they differ (the summary's {@code detail} names those). Not
 * thread-safe: {@link MergeWindows} counts into it under its lock.
 */
final class RefusalSummary {

    /** A field the summary keeps only if every refusal it counts had the same value. */
    private record Field(String name, Function<AuditEvent, Object> value) {
    }

    private static final List<Field> FIELDS = List.of(
            new Field("tenant", e -> caller(e, Caller::tenant)), new Field("roles", e -> caller(e, Caller::roles)),
            new Field("session", e -> caller(e, Caller::sessionId)), new Field("correlation", e -> caller(e, Caller::correlationId)),
            new Field("ip", e -> caller(e, Caller::sourceIp)), new Field("ua", e -> caller(e, Caller::userAgent)),
            new Field("client_info", e -> caller(e, Caller::clientInfo)), new Field("auth_context", e -> caller(e, Caller::authContext)),
            new Field("protocol", AuditEvent::protocol), new Field("method", AuditEvent::method),
            new Field("action", AuditEvent::action), new Field("uri", AuditEvent::uri),
            new Field("decision", AuditEvent::decision), new Field("rules", AuditEvent::rules),
            new Field("revision", AuditEvent::policyRevision), new Field("error", AuditEvent::errorCode));

    private final AuditEvent first;
    private final boolean[] differs = new boolean[FIELDS.size()];
    private final UriTally uris = new UriTally();
    private long count;
    private Instant firstTime;
    private Instant lastTime;

    RefusalSummary(AuditEvent first) {
        this.first = first;
        add(first);
    }

    /** Whether this summary can count {@code e}: not when it names a URI the summary has no room left for. */
    boolean takes(AuditEvent e) {
        return uris.takes(e.uri());
    }

    void add(AuditEvent e) {
        count++;
        firstTime = firstTime == null || e.time().isBefore(firstTime) ? e.time() : firstTime;
        lastTime = lastTime == null || e.time().isAfter(lastTime) ? e.time() : lastTime;
        uris.add(e.uri());
        if (e != first) {
            for (int i = 0; i < differs.length; i++) {
                differs[i] |= !Objects.equals(FIELDS.get(i).value().apply(first), FIELDS.get(i).value().apply(e));
            }
        }
    }

    long count() {
        return count;
    }

    String outcome() {
        return first.outcome();
    }

    /** The first refusal's caller as the summary names it: subject and client, and each other field the refusals shared. */
    private Caller keptCaller(Caller c) {
        return c == null ? null : new Caller(c.subject(), c.client(), keep("tenant", c.tenant()), keep("roles", c.roles()),
                keep("ip", c.sourceIp()), keep("ua", c.userAgent()), keep("session", c.sessionId()),
                keep("correlation", c.correlationId()), keep("client_info", c.clientInfo()), keep("auth_context", c.authContext()));
    }

    /**
     * The {@code ATTEMPT_SUMMARY} under {@code requestId}, the id every refusal it counts was answered with, once it
     * had committed; {@code answeredFirst}: the refusals were answered before they were recorded, under ids of their
     * own (a body that broke off: its connection could not wait), and the summary says so.
     */
    AuditEvent toEvent(String requestId, boolean answeredFirst) {
        Caller caller = keptCaller(first.caller());
        var differing = new TreeSet<String>();
        for (int i = 0; i < differs.length; i++) {
            if (differs[i]) {
                differing.add(FIELDS.get(i).name());
            }
        }
        String detail = count + " refused request(s) past the attempt limit, merged into this record; each was answered"
                + (answeredFirst ? " before it was recorded, under a request id of its own" : " only once it had committed")
                + (differing.isEmpty() ? "" : "; left out where they differed: "
                + String.join(", ", differing));
        return AuditEvent.of(AuditEvent.Kind.ATTEMPT_SUMMARY, requestId).caller(caller).protocol(keep("protocol", first.protocol()))
                .method(keep("method", first.method())).action(keep("action", first.action())).uri(keep("uri", first.uri()))
                .decision(keep("decision", first.decision())).rules(keep("rules", first.rules()))
                .policyRevision(keep("revision", first.policyRevision())).outcome(first.outcome())
                .errorCode(keep("error", first.errorCode())).summary(count, firstTime, lastTime)
                .uris(uris.lines(), uris.more()).detail(detail).build();
    }

    private <T> T keep(String field, T value) {
        for (int i = 0; i < FIELDS.size(); i++) {
            if (FIELDS.get(i).name().equals(field)) {
                return differs[i] ? null : value;
            }
        }
        throw new IllegalArgumentException(field);
    }

    private static Object caller(AuditEvent e, Function<Caller, Object> f) {
        return e.caller() == null ? null : f.apply(e.caller());
    }
}
