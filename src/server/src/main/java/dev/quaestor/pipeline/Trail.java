package dev.quaestor.pipeline;

import dev.quaestor.audit.record.AuditEvent;
import dev.quaestor.audit.record.AuditEvent.Kind;
import dev.quaestor.audit.record.AuditUnavailableException;
import dev.quaestor.audit.write.PendingCommit;
import dev.quaestor.audit.refusals.RecordedRefusal;
import dev.quaestor.policy.Action;
import dev.quaestor.policy.Decision;
import dev.quaestor.policy.PolicySet;
import dev.quaestor.ratelimit.RateCheck;
import dev.quaestor.ratelimit.RateLimitUnavailableException;
import dev.quaestor.uri.CanonicalUri;
import dev.quaestor.uri.InvalidUriException;
import dev.quaestor.uri.UriCanonicalizer;
import java.util.LinkedHashMap;
import java.util.concurrent.RejectedExecutionException;
import org.jboss.logging.Logger;
import java.util.Map;

/**
 * One request on the request path, from the moment it enters ({@link Trails#open}) to its last record: who asks
 * ({@link RequestContext}), with which method and policy action, for which URI, under which policy revision, since
 * when, what the rate limiter answered, and its {@code DECISION} while that is queued and not yet known durable.
 *
 * <p>Its verbs alone write the request's records and its metrics: {@link #refuse} (a refusal's one record),
 * {@link #admit} (the {@code DECISION} of a request allowed to go on), {@link #served} and {@link #failed} (the
 * {@code OUTCOME}). The order they are called in is {@link ResourcePipeline}'s.
 */
final class Trail {

    private static final Logger LOG = Logger.getLogger(Trail.class);
    /** How a request refused before it could be read is named where a method's name would be a label. */
    private static final String MALFORMED = "malformed";

    private final Trails services;
    private final RequestContext ctx;
    private final String method;
    private final Action action;
    private final PolicySet policy;
    private final long start;
    /** The URI the records name: as sent until it has a canonical form, then that; null for no one URI. */
    private String uri;
    /** The URI as the client sent it, named in a denial's answer. */
    private String requested;
    private RateCheck rate = RateCheck.UNLIMITED;
    /** Queued and not yet known durable: the OUTCOME is stored only if it is. Null once awaited. */
    private PendingCommit decision;
    private CacheHint cache;

    Trail(Trails services, RequestContext ctx, String method, Action action) {
        this.start = System.nanoTime();
        this.services = services;
        this.ctx = ctx;
        this.method = method;
        this.action = action;
        this.policy = services.policies.get();
    }

    RequestContext context() {
        return ctx;
    }

    PolicySet policy() {
        return policy;
    }

    String uri() {
        return uri;
    }

    /** The request names this URI (its records do from now on). */
    void at(String text) {
        uri = text;
    }

    void at(CanonicalUri canonical) {
        uri = canonical.toString();
    }

    /** A stage of this request, traced as a span (see {@link StageSpans}). */
    StageSpans.Stage stage(String name) {
        return services.spans.start(name, method == null ? MALFORMED : method);
    }

    /**
     * The canonical form of {@code raw}, or an audited refusal ({@link Reason#INVALID_URI}) for a URI that has none
     * and, on a revision that asks for canonical URIs only ({@link Protocol#canonicalUrisOnly}), for one that is not
     * already canonical: the answer then names the canonical form, and nothing is judged or served under another
     * string than the one the client sent. The refused request pays for what it asked first.
     */
    CanonicalUri canonical(String raw) {
        requested = raw;
        CanonicalUri canonical;
        try {
            canonical = UriCanonicalizer.canonicalize(raw);
        } catch (InvalidUriException e) {
            uri = raw;
            // Without a canonical form, only limits over every resource ("**") can apply to it.
            charge(null, Verdict.DENY, 1);
            // data.reason tells it from "not found", which has the same code and {uri} alone (SDKs read that as absent).
            var data = Refusal.uriData(raw);
            data.put("reason", "invalid-uri");
            throw refuse(Verdict.DENY, "invalid-uri", truncate(e.getMessage()),
                    new Refusal(Reason.INVALID_URI, "Invalid resource URI: " + e.getMessage(), data));
        }
        if (ctx.protocol().canonicalUrisOnly() && !canonical.toString().equals(raw)) {
            uri = raw;
            charge(canonical, Verdict.DENY, 1);
            var data = Refusal.uriData(raw);
            data.put("canonicalUri", canonical.toString());
            throw refuse(Verdict.DENY, "non-canonical-uri", "canonical form: " + truncate(canonical.toString()),
                    new Refusal(Reason.INVALID_URI, "Resource URI is not in canonical form; use "
                            + truncate(canonical.toString()), data));
        }
        return canonical;
    }

    /** The policy's verdict on {@code target}, not yet recorded: the rate limit is charged first. */
    Verdict judge(CanonicalUri target) {
        try (var stage = stage("policy")) {
            Decision d = policy.decide(ctx.identity(), action, target, ctx.facts());
            stage.outcome(d.allowed() ? "allow" : "deny");
            return Verdict.of(d);
        }
    }

    /**
     * The rate limit: spends {@code tokens} of every limit that applies, whatever the verdict, so that a refused
     * request costs what an admitted one does. An empty bucket refuses the request, denied or not: its one record is
     * the {@code DECISION} with the verdict it had, outcome {@code rate-limited} (or {@code rate-limit-unavailable}
     * when a fail-closed limit's store cannot answer) and the limit in {@code detail}.
     *
     * @param limited the canonical URI the limits are matched against (null when there is none)
     */
    void charge(CanonicalUri limited, Verdict verdict, int tokens) {
        if (action == null) {
            return; // not a resource method: no limit names it
        }
        charge(action, limited, verdict, tokens);
    }

    /** As {@link #charge(CanonicalUri, Verdict, int)}, to the limits over {@code paying}, whatever this request's action. */
    void charge(Action paying, CanonicalUri limited, Verdict verdict, int tokens) {
        RateCheck check;
        // Refused here before the policy was asked (at the door), the record says so: its verdict alone would read
        // as the policy's default deny.
        String unjudged = verdict.judged() ? "" : AuditEvent.POLICY_NOT_ASKED;
        try {
            check = ask(paying, limited, tokens);
        } catch (RateLimitUnavailableException e) {
            throw refuse(verdict, "rate-limit-unavailable", e.getMessage() + unjudged, new Refusal(Reason.UNAVAILABLE,
                    "Service unavailable: the rate limiter cannot check this request", Map.of()));
        }
        if (!check.allowed()) {
            var data = new LinkedHashMap<String, Object>();
            data.put("retryAfterSeconds", check.retryAfterSeconds());
            String detail = "limit " + check.limitId() + (tokens > 1 ? "; " + tokens + " tokens asked" : "")
                    + (check.auditDetail() == null ? "" : "; " + check.auditDetail()) + unjudged;
            throw refuse(verdict, "rate-limited", detail, new Refusal(Reason.RATE_LIMITED, "Rate limit exceeded", data, check));
        }
        rate = check;
    }

    /**
     * For a refusal already answered (its connection would be gone by its record's commit): charged as {@link #charge}
     * charges, but an empty bucket or a rate limiter that cannot be asked refuses nothing more, since the answer has
     * gone. Returns, for the record's detail, the limit it was not charged to and why, or null if every limit took its
     * tokens. Limits asked before that one keep what they took, as they do for any refused request.
     */
    String chargeAnswered(Action paying, int tokens) {
        try {
            RateCheck check = ask(paying, null, tokens);
            if (check.allowed()) {
                rate = check;
                return null;
            }
            return "not charged to limit " + check.limitId() + ": it is spent"
                    + (check.auditDetail() == null ? "" : "; " + check.auditDetail());
        } catch (RateLimitUnavailableException e) {
            return "not charged to limit " + e.limitId() + ": its store could not be asked";
        }
    }

    private RateCheck ask(Action paying, CanonicalUri limited, int tokens) {
        try (var stage = stage("ratelimit")) {
            RateCheck check = services.limits.check(policy, ctx.identity(), ctx.sourceIp(), paying, limited, tokens);
            stage.outcome(check.allowed() ? "admitted" : "rejected");
            return check;
        }
    }

    /** The rate limit's answer once charged: its headers and the notes the records carry. */
    RateCheck rate() {
        return rate;
    }

    /**
     * A denial is refused here, its {@code DECISION} its only record, the same answer whether or not the URI exists.
     * Otherwise the {@code DECISION} is queued, not awaited: the serve step may work while it commits, and its
     * {@code OUTCOME} is stored only if the {@code DECISION} was, so one wait covers both ({@link #durable} waits
     * for it alone, where something leaves before the {@code OUTCOME} exists).
     */
    void admit(Verdict verdict) {
        if (!verdict.allowed()) {
            throw refuse(verdict, "refused", null,
                    new Refusal(Reason.DENIED, "Permission denied", Refusal.uriData(requested)));
        }
        decision = decided(uri, verdict, null, null);
    }

    /**
     * A further {@code DECISION} of this request (one per URI a listen names), queued.
     *
     * @param outcome why it is not granted although allowed or denied (null if granted)
     */
    PendingCommit decided(String named, Verdict verdict, String outcome, String detail) {
        if (action != null) {
            services.metrics.decided(action, verdict.name());
        }
        var event = decisionEvent(named, verdict, outcome, null, detail);
        try (var stage = stage("audit.decision")) {
            // Should the writer find it stored after telling this request it was not (the wait ended as it stored it,
            // or a commit's reply was lost), the request was refused for it: the writer stores this after it.
            return services.audit.submitDecision(event, () -> abortedEvent(ctx.code(Reason.UNAVAILABLE), null,
                    "the DECISION was stored though the audit log did not confirm it in time: "
                            + Unconfirmed.REFUSED.said));
        } catch (AuditUnavailableException e) {
            throw auditUnavailable();
        }
    }

    /** Waits until the {@code DECISION} is durable; fails closed ({@link Reason#UNAVAILABLE}) if it is not. */
    void durable() {
        if (decision != null) {
            await(decision);
            decision = null;
        }
    }

    /** Waits for a queued record; the request fails closed if it is not committed. */
    static void await(PendingCommit record) {
        try {
            record.await();
        } catch (AuditUnavailableException e) {
            throw auditUnavailable();
        }
    }

    /**
     * A refusal's one record, a {@code DECISION} saying what was decided and why ({@code outcome}, the code the
     * caller is answered with, {@code detail}), and the refusal to throw, carrying that record. Through the
     * {@link dev.quaestor.audit.refusals.RefusalRecorder}: committed before this returns while the subject is under its attempt
     * limit; past it, counted into a summary the answer must wait for ({@link Refusal#pending}).
     */
    Refusal refuse(Verdict verdict, String outcome, String detail, Refusal answer) {
        // Without an action the method is whatever the client sent, if anything: never a label of its own.
        services.metrics.finished(action == null ? MALFORMED : method, outcomeMetric(answer.reason(), outcome),
                System.nanoTime() - start);
        return answer.recordedAs(record(verdict, outcome, ctx.code(answer.reason()), detail));
    }

    /** A request refused for its framing before the path began: its one record, {@code DENY}, with its code. */
    RecordedRefusal rejected(String outcome, Integer errorCode, String detail) {
        // The limiter's notes (a limit admitted unchecked, a shadow limit) with it, as an admitted request's records have.
        return record(Verdict.DENY, outcome, errorCode, join(detail, rate.auditDetail()));
    }

    private RecordedRefusal record(Verdict verdict, String outcome, Integer errorCode, String detail) {
        if (action != null) {
            services.metrics.decided(action, verdict.name());
        }
        try (var stage = stage("audit.decision")) {
            RecordedRefusal r = services.audit.refusal(decisionEvent(uri, verdict, outcome, errorCode, detail));
            if (!r.merged()) {
                r.await();
            }
            return r;
        } catch (AuditUnavailableException e) {
            throw auditUnavailable();
        }
    }

    /** The result may be cached as {@code hint} says; on a revision that declares it, its scope is recorded. */
    void cache(CacheHint hint) {
        cache = hint;
    }

    /**
     * The {@code OUTCOME} of a request served: what was disclosed, committed before this returns (fail closed), and
     * stored only if the {@code DECISION} is.
     */
    void served(Outcome outcome) {
        write(outcome, cacheScope(), Unconfirmed.REFUSED);
    }

    /**
     * The {@code OUTCOME} of a streamed read, its content already sent: as {@link #served}, but if it is not confirmed
     * the response is cut off before its end instead of refused.
     */
    void streamed(Outcome outcome) {
        write(outcome, cacheScope(), Unconfirmed.CUT_OFF);
    }

    /** The cache scope the OUTCOME records, on a revision that declares it. */
    private String cacheScope() {
        return ctx.protocol().declaresCacheScope() && cache != null ? cache.scope() : null;
    }

    /** The {@code OUTCOME} of a response that will not be written, nothing of it sent. */
    void failed(Outcome outcome) {
        write(outcome, null, Unconfirmed.REFUSED);
    }

    /**
     * The {@code OUTCOME} of a streamed response that broke off part-way, with what was read of it: some of it may have
     * been sent, so if it is not confirmed, the further {@code OUTCOME} says the response was cut off, with those bytes.
     */
    void brokeOff(Outcome outcome) {
        write(outcome, null, Unconfirmed.CUT_OFF);
    }

    /** The {@code OUTCOME} of a serve step that refused: {@code answer}, with the code it is answered with. */
    Refusal failed(String outcome, String detail, Refusal answer) {
        write(Outcome.of(outcome).code(ctx.code(answer.reason())).detail(detail), null, Unconfirmed.REFUSED);
        return answer;
    }

    /** The {@code OUTCOME} of a provider call that failed ({@link FailedStep}), and the refusal to throw. */
    Refusal failed(RuntimeException providerError) {
        FailedStep f = FailedStep.of(providerError, uri, ctx.requestId());
        return failed(f.outcome(), f.detail(), f.refusal());
    }

    /** The served result, with the rate-limit state and cache hint its response reports. */
    <T> Served<T> result(T value) {
        return new Served<>(value, rate, cache, this::undelivered);
    }

    /**
     * A second {@code OUTCOME} for a request whose answer never reached the client although its first said what was
     * served: {@code aborted}, with why. Queued, not awaited (the caller may be an I/O thread); if it cannot be
     * queued, that is logged, as nothing is left to refuse.
     */
    void undelivered(String why) {
        aborted(null, null, "the answer did not reach the client: " + why);
    }

    /** What the client gets when an {@code OUTCOME} is not confirmed: the audit log's refusal, or a response cut off. */
    private enum Unconfirmed {
        REFUSED("the request was refused (the audit log is unavailable) and nothing of it was served"),
        CUT_OFF("the response was cut off before its end");

        final String said;

        Unconfirmed(String said) {
            this.said = said;
        }
    }

    private void write(Outcome o, String cacheScope, Unconfirmed otherwise) {
        services.metrics.finished(method, o.name(), System.nanoTime() - start);
        var event = AuditEvent.of(Kind.OUTCOME, ctx.requestId()).caller(ctx.caller()).protocol(ctx.protocolVersion())
                .method(method).action(action.wireName()).uri(uri).policyRevision(policy.revision()).outcome(o.name())
                .errorCode(o.errorCode()).bytes(o.bytes()).items(o.items()).contentSha256(o.sha256())
                .cacheScope(cacheScope).latencyMicros((System.nanoTime() - start) / 1000)
                .detail(join(rate.auditDetail(), o.detail())).build();
        try (var stage = stage("audit.outcome")) {
            Integer code = otherwise == Unconfirmed.REFUSED ? ctx.code(Reason.UNAVAILABLE) : null;
            PendingCommit queued;
            try {
                // Should the writer find the OUTCOME stored after telling this request it was not (a commit's reply
                // lost), with the DECISION in the same batch, it stores this correction: the request cannot.
                queued = services.audit.submitOutcome(decision, event, () -> abortedEvent(code, null,
                        "the OUTCOME was stored though the audit log reported it was not (its commit's reply was lost): "
                        + otherwise.said));
            } catch (AuditUnavailableException e) {
                throw auditUnavailable(); // not queued: nothing of it will be stored
            }
            try {
                queued.await();
            } catch (AuditUnavailableException e) {
                // Queued but not confirmed: a slow database may still store it (the writer leaves out what was given up
                // before it took it), or a commit may have succeeded whose reply was lost. It would then say more than
                // happened, so a further OUTCOME says how the request ended.
                if (decision == null || !decision.failed()) {
                    // Cut off: the content went out before the OUTCOME (a streamed read), so this one says how much.
                    aborted(code, otherwise == Unconfirmed.CUT_OFF ? o : null, "the audit log did not confirm this"
                            + " request's OUTCOME within the commit timeout: " + otherwise.said);
                }
                throw auditUnavailable();
            }
        }
    }

    /**
     * A further {@code OUTCOME}, {@code aborted}: the request did not end as a record before said, or may say. Queued
     * after the {@code DECISION} if that is not yet durable (never stored without it); with the {@code DECISION}
     * stored, owed to the log, which keeps it until it is stored, however long its database is away (what it says
     * has happened). Not awaited (the caller may be an I/O thread); if it cannot be queued, that is logged, as
     * nothing is left to refuse.
     *
     * @param sent the content that went out before it (a streamed read cut off): its bytes and SHA-256; or null
     */
    private void aborted(Integer errorCode, Outcome sent, String detail) {
        var event = abortedEvent(errorCode, sent, detail);
        PendingCommit after = decision;
        try {
            if (after == null) {
                services.audit.submitOwed(event);
            } else {
                services.audit.submitAfter(after, event);
            }
        } catch (AuditUnavailableException | RejectedExecutionException e) {
            LOG.errorf("request %s: the record of how it ended could not be queued (%s): %s", ctx.requestId(), detail,
                    e.toString());
        }
    }

    private AuditEvent abortedEvent(Integer errorCode, Outcome sent, String detail) {
        return AuditEvent.of(Kind.OUTCOME, ctx.requestId()).caller(ctx.caller()).protocol(ctx.protocolVersion())
                .method(method).action(action.wireName()).uri(uri).policyRevision(policy.revision()).outcome("aborted")
                .errorCode(errorCode).bytes(sent == null ? null : sent.bytes())
                .contentSha256(sent == null ? null : sent.sha256())
                .latencyMicros((System.nanoTime() - start) / 1000).detail(truncate(detail)).build();
    }

    private AuditEvent decisionEvent(String named, Verdict verdict, String outcome, Integer errorCode, String detail) {
        return AuditEvent.of(Kind.DECISION, ctx.requestId()).caller(ctx.caller()).protocol(ctx.protocolVersion())
                .method(method).action(action == null ? null : action.wireName()).uri(named).decision(verdict.name())
                .rules(verdict.rules()).policyRevision(policy.revision()).outcome(outcome).errorCode(errorCode)
                .detail(detail).build();
    }

    private static String outcomeMetric(Reason reason, String outcome) {
        return switch (reason) {
            case DENIED -> "denied";
            case INVALID_URI -> "invalid-uri";
            default -> outcome;
        };
    }

    private static Refusal auditUnavailable() {
        return new Refusal(Reason.UNAVAILABLE, "Service unavailable: the audit log cannot record this request", Map.of());
    }

    private static String join(String a, String b) {
        return a == null ? b : b == null ? a : a + "; " + b;
    }

    static String truncate(String s) {
        return s == null || s.length() <= 200 ? s : s.substring(0, 200) + "...";
    }
}
