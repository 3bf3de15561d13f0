package dev.quaestor.pipeline;

import dev.quaestor.audit.refusals.AuditDoubles;
import dev.quaestor.audit.record.AuditEvent;
import dev.quaestor.audit.record.AuditUnavailableException;
import dev.quaestor.audit.write.PendingCommit;
import dev.quaestor.audit.refusals.RecordedRefusal;
import dev.quaestor.identity.Identity;
import dev.quaestor.policy.Action;
import dev.quaestor.policy.PolicySet;
import dev.quaestor.ratelimit.RateCheck;
import dev.quaestor.uri.CanonicalUri;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.opentelemetry.api.OpenTelemetry;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.function.Supplier;

/**
 * Hand-written fakes of what the request path writes to and asks of. Every call they take goes, in order, to one
 * shared {@link #journal}, so a test can check the order of the steps across them.
 */
final class PipelineFakes {

    /** Every step the fakes saw, in order: "limit", "DECISION ALLOW", "provider read …", "OUTCOME ok", … */
    final List<String> journal = new ArrayList<>();
    final FakeAudit audit = new FakeAudit();
    final FakeLimits limits = new FakeLimits();
    final SimpleMeterRegistry meters = new SimpleMeterRegistry();

    Trails trails(Supplier<PolicySet> policy) {
        return trails(policy, limits, audit, meters);
    }

    static Trails trails(Supplier<PolicySet> policy, RateLimits limits, AuditSink audit, SimpleMeterRegistry meters) {
        return new Trails(policy, limits, audit, new PipelineMetrics(meters),
                new StageSpans(OpenTelemetry.noop().getTracer("test")));
    }

    /** A request from a caller with role {@code reader}, on a revision that canonicalises URIs and declares no cache scope. */
    static RequestContext request(String requestId) {
        var who = new Identity("alice", "client-a", null, Set.of("reader"), Set.of(), Set.of());
        return new RequestContext(requestId, who, "10.0.0.1", "test", "session-1", null, null,
                new Protocol("2025-11-25", reason -> -32000 - reason.ordinal(), false, false));
    }

    /** The audit log: stores what it takes unless told to refuse it, and an OUTCOME only if its DECISION was stored. */
    final class FakeAudit implements AuditSink {
        final List<AuditEvent> stored = new ArrayList<>();
        /** The log refuses a DECISION at once (its queue is full, it is down). */
        boolean refuseDecisions;
        /** The log queues a DECISION but never commits it. */
        boolean loseDecisions;
        /** Committing an OUTCOME fails with this (an unchecked exception), if set. */
        RuntimeException outcomeFailure;
        /** What each OUTCOME queued would be corrected with, should it be stored though reported not stored. */
        final List<java.util.function.Supplier<AuditEvent>> corrections = new ArrayList<>();
        /** What each DECISION queued would be followed by, should it be stored though its request was refused. */
        final List<java.util.function.Supplier<AuditEvent>> refusals = new ArrayList<>();
        /** The log queues an OUTCOME but never confirms it. */
        boolean loseOutcomes;
        /** Records owed to the log: kept until stored, however long its database is away. */
        final List<AuditEvent> owed = new ArrayList<>();

        @Override
        public PendingCommit submitDecision(AuditEvent decision, java.util.function.Supplier<AuditEvent> refused) {
            refusals.add(refused);
            return submit(decision);
        }

        @Override
        public void submitOwed(AuditEvent event) {
            journal.add(event.kind() + " " + event.outcome() + " (owed)");
            owed.add(event);
        }

        @Override
        public PendingCommit submitOutcome(PendingCommit decision, AuditEvent outcome,
                java.util.function.Supplier<AuditEvent> correction) {
            corrections.add(correction);
            return AuditSink.super.submitOutcome(decision, outcome, correction);
        }

        @Override
        public PendingCommit submit(AuditEvent event) {
            journal.add(event.kind() + " " + (event.kind() == AuditEvent.Kind.DECISION ? event.decision() : event.outcome()));
            if (event.kind() == AuditEvent.Kind.DECISION) {
                if (refuseDecisions) {
                    throw new AuditUnavailableException(new IllegalStateException("audit queue full"));
                }
                if (loseDecisions) {
                    return AuditDoubles.failed("decision not committed");
                }
            } else if (outcomeFailure != null) {
                throw outcomeFailure;
            } else if (loseOutcomes) {
                return AuditDoubles.failed("outcome not confirmed");
            }
            stored.add(event);
            return AuditDoubles.committed();
        }

        @Override
        public PendingCommit submitAfter(PendingCommit first, AuditEvent event) {
            if (first.failed()) {
                journal.add(event.kind() + " " + event.outcome() + " (dropped: its DECISION was not stored)");
                return AuditDoubles.failed("stored only after its decision");
            }
            return submit(event);
        }

        @Override
        public RecordedRefusal refusal(AuditEvent event) {
            journal.add(event.kind() + " " + event.decision() + " " + event.outcome());
            if (refuseDecisions) {
                throw new AuditUnavailableException(new IllegalStateException("audit queue full"));
            }
            stored.add(event);
            return AuditDoubles.recorded(event.requestId());
        }

        List<AuditEvent> of(AuditEvent.Kind kind) {
            return stored.stream().filter(e -> e.kind() == kind).toList();
        }
    }

    /** The rate limiter: admits until told to refuse. */
    final class FakeLimits implements RateLimits {
        boolean empty;
        /** The store of a fail-closed limit cannot answer. */
        boolean unavailable;
        /** What the limiter notes for the record (a limit admitted unchecked, a shadow limit). */
        List<String> notes = List.of();
        final List<Integer> tokens = new ArrayList<>();
        /** The action each check was asked for. */
        final List<Action> actions = new ArrayList<>();

        @Override
        public RateCheck check(PolicySet policy, Identity who, String sourceIp, Action action, CanonicalUri uri, int n) {
            journal.add("limit");
            tokens.add(n);
            actions.add(action);
            if (unavailable) {
                throw new dev.quaestor.ratelimit.RateLimitUnavailableException("per-subject", new IllegalStateException("down"));
            }
            return empty ? new RateCheck(false, "per-subject", 10, 0, 60, 7, notes)
                    : new RateCheck(true, "per-subject", 10, 9, 60, 0, notes);
        }
    }
}
