package dev.quaestor.pipeline;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.quaestor.audit.record.AuditEvent;
import dev.quaestor.audit.record.AuditUnavailableException;
import dev.quaestor.audit.record.AuditEvent.Kind;
import dev.quaestor.policy.Action;
import dev.quaestor.policy.Conditions;
import dev.quaestor.policy.Effect;
import dev.quaestor.policy.PolicySet;
import dev.quaestor.policy.ResourcePattern;
import dev.quaestor.policy.Rule;
import dev.quaestor.policy.SubjectSet;
import dev.quaestor.provider.Mount;
import dev.quaestor.provider.Page;
import dev.quaestor.provider.ResourceContent;
import dev.quaestor.provider.ResourceEntry;
import dev.quaestor.provider.ResourceNotFoundException;
import dev.quaestor.provider.ResourceProvider;
import dev.quaestor.provider.TemplateEntry;
import dev.quaestor.provider.mounts.MountTable.Mounted;
import dev.quaestor.subscription.Subscriber;
import dev.quaestor.uri.CanonicalUri;
import dev.quaestor.uri.UriCanonicalizer;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;

/**
 * The order of the request path, driven with hand-written fakes of everything it writes to and asks of (the audit
 * log, the rate limiter, the content sources, the subscription store): every step the fakes see goes to one journal,
 * so each test states the order it expects.
 */
class ResourcePipelineOrderTest {

    private static final String PUBLIC = "file:///docs/public/a.txt";
    private static final String SECRET = "file:///docs/secret/b.txt";
    private static final byte[] CONTENT = "the public text".getBytes(StandardCharsets.UTF_8);

    /** Role {@code reader} may read, list and subscribe below file:///docs/public/; nothing else is allowed. */
    private static final PolicySet POLICY = new PolicySet("rev-7", List.of(new Rule("docs-public", Effect.ALLOW,
            EnumSet.of(Action.READ, Action.LIST, Action.SUBSCRIBE), List.of(ResourcePattern.parse("file:///docs/public/**")),
            new SubjectSet(Set.of("reader"), Set.of(), Set.of(), Set.of(), Set.of()), Conditions.NONE, "test.yaml:1")),
            List.of(), List.of(), List.of("test.yaml"));

    private final PipelineFakes fakes = new PipelineFakes();
    private final List<String> journal = fakes.journal;
    private final FakeSources sources = new FakeSources();
    private final List<String> subscribed = new ArrayList<>();

    private ResourcePipeline pipeline(int bufferLimit) {
        Subscriptions store = new Subscriptions() {
            @Override
            public boolean add(String sessionId, String uri, Subscriber who) {
                journal.add("store add " + uri);
                if (subscribed.contains(uri)) {
                    return false;
                }
                return subscribed.add(uri);
            }

            @Override
            public boolean remove(String sessionId, String uri) {
                journal.add("store remove " + uri);
                return subscribed.remove(uri);
            }
        };
        ListingConfig listing = new ListingConfig() {
            @Override
            public java.util.Optional<String> cursorSecret() {
                return java.util.Optional.empty();
            }

            @Override
            public int pageSize() {
                return 50;
            }

            @Override
            public int scanBudget() {
                return 5000;
            }
        };
        ReadConfig read = new ReadConfig() {
            @Override
            public int bufferLimit() {
                return bufferLimit;
            }

            @Override
            public Duration writeTimeout() {
                return Duration.ofSeconds(30);
            }
        };
        return new ResourcePipeline(fakes.trails(() -> POLICY), sources, store, listing, read, Runnable::run);
    }

    private final ResourcePipeline pipeline = pipeline(1024);
    private final RequestContext ctx = PipelineFakes.request("req-1");

    @Test
    void aDeniedReadWritesExactlyOneDecisionAndNeverCallsTheProvider() {
        var refusal = assertThrows(Refusal.class, () -> pipeline.read(ctx, SECRET));
        assertEquals(Reason.DENIED, refusal.reason());
        assertEquals(List.of("limit", "DECISION DENY refused"), journal);
        AuditEvent decision = only(Kind.DECISION);
        assertEquals(SECRET, decision.uri());
        assertEquals("rev-7", decision.policyRevision());
        assertEquals(ctx.code(Reason.DENIED), decision.errorCode());
        assertEquals(List.of(), fakes.audit.of(Kind.OUTCOME));
        assertEquals(0, sources.calls);
    }

    @Test
    void anAllowedReadRecordsItsDecisionBeforeTheProviderAndItsOutcomeWithTheBytesDigestAfter() throws Exception {
        sources.put(PUBLIC, CONTENT);
        var served = pipeline.read(ctx, PUBLIC);
        assertEquals(List.of("limit", "DECISION ALLOW", "provider read " + PUBLIC, "OUTCOME ok"), journal);
        var complete = assertInstanceOf(ReadResult.Complete.class, served.result());
        assertArrayEquals(CONTENT, complete.bytes());
        assertEquals(List.of("docs-public"), only(Kind.DECISION).rules());
        AuditEvent outcome = only(Kind.OUTCOME);
        assertEquals(sha256(CONTENT), outcome.contentSha256());
        assertEquals((long) CONTENT.length, outcome.bytes());
        assertEquals(PUBLIC, outcome.uri());
        assertTrue(served.rate().allowed());
        // Should the writer find this OUTCOME stored after reporting it was not, it stores what the request got.
        AuditEvent correction = fakes.audit.corrections.get(0).get();
        assertEquals(List.of(Kind.OUTCOME, "aborted", ctx.code(Reason.UNAVAILABLE), outcome.requestId(), PUBLIC),
                List.of(correction.kind(), correction.outcome(), correction.errorCode(), correction.requestId(), correction.uri()));
        assertTrue(correction.detail().contains("its commit's reply was lost): the request was refused"), correction.detail());
    }

    @Test
    void aRateLimitedRequestIsRefusedBeforeAnyProviderCallWithOneRecord() {
        sources.put(PUBLIC, CONTENT);
        fakes.limits.empty = true;
        var refusal = assertThrows(Refusal.class, () -> pipeline.read(ctx, PUBLIC));
        assertEquals(Reason.RATE_LIMITED, refusal.reason());
        assertEquals(7L, refusal.details().get("retryAfterSeconds"));
        assertNotNull(refusal.rate());
        assertEquals(List.of("limit", "DECISION ALLOW rate-limited"), journal, "judged allowed, refused by the limit");
        assertEquals(0, sources.calls);
    }

    @Test
    void aDeniedRequestPaysForWhatItAsksAndAnEmptyBucketRefusesItToo() {
        fakes.limits.empty = true;
        var refusal = assertThrows(Refusal.class, () -> pipeline.read(ctx, SECRET));
        assertEquals(Reason.RATE_LIMITED, refusal.reason());
        assertEquals(List.of("limit", "DECISION DENY rate-limited"), journal);
    }

    /**
     * A request the protocol layer could not read pays one token as a listing over every resource does, and its one
     * record is a DENY with no action, saying what was wrong; past an empty bucket it is refused, under a metric label of
     * its own rather than whatever method it named.
     */
    @Test
    void aRequestRefusedUnreadPaysAsAListingAndIsOneDenyWithoutAnAction() {
        var recorded = pipeline.rejectMalformed(ctx, "tools/" + "x".repeat(100), "file:///a", "invalid-request", -32600,
                "Invalid JSON-RPC 2.0 message");
        assertEquals("req-1", recorded.requestId());
        assertEquals(List.of("limit", "DECISION DENY invalid-request"), journal);
        assertEquals(List.of(Action.LIST), fakes.limits.actions);
        assertEquals(List.of(1), fakes.limits.tokens);
        AuditEvent e = fakes.audit.of(Kind.DECISION).get(0);
        assertEquals(null, e.action());
        assertEquals(64, e.method().length(), "cut to the column's length");
        assertEquals("file:///a", e.uri());
        assertEquals(-32600, e.errorCode());
        assertEquals("Invalid JSON-RPC 2.0 message", e.detail());

        journal.clear();
        fakes.limits.empty = true;
        var refusal = assertThrows(Refusal.class, () -> pipeline.rejectMalformed(ctx, "tools/call", null, "parse-error", -32700,
                "not exactly one JSON value"));
        assertEquals(Reason.RATE_LIMITED, refusal.reason());
        assertEquals(List.of("limit", "DECISION DENY rate-limited"), journal, "one record: the rate-limit refusal");
        assertNotNull(fakes.meters.find("quaestor.requests").tag("method", "malformed").timer());
        assertEquals(null, fakes.meters.find("quaestor.requests").tag("method", "tools/call").timer());
    }

    /**
     * A body that broke off was answered before its record: whatever the limiter says, its record is the refusal it was
     * answered with, and its detail names the limit it was not charged to, and why, and carries the limiter's notes.
     */
    @Test
    void aRefusalAnsweredFirstIsRecordedAsAnsweredWhateverTheLimiterSays() {
        pipeline.recordAnswered(ctx, "unreadable", "connection closed after 3 bytes received");
        fakes.limits.empty = true;
        fakes.limits.notes = List.of("shadow limit trial would reject");
        pipeline.recordAnswered(ctx, "unreadable", "connection closed after 4 bytes received");
        fakes.limits.empty = false;
        fakes.limits.unavailable = true;
        pipeline.recordAnswered(ctx, "unreadable", "connection closed after 5 bytes received");
        assertEquals(List.of("connection closed after 3 bytes received",
                "connection closed after 4 bytes received; not charged to limit per-subject: it is spent; shadow limit trial"
                        + " would reject",
                "connection closed after 5 bytes received; not charged to limit per-subject: its store could not be asked"),
                fakes.audit.of(Kind.DECISION).stream().map(AuditEvent::detail).toList());
        assertEquals(List.of("unreadable", "unreadable", "unreadable"),
                fakes.audit.of(Kind.DECISION).stream().map(AuditEvent::outcome).toList());
    }

    /** A refusal at the door that paid its token carries the limiter's notes, as an admitted request's records do. */
    @Test
    void aRefusalAtTheDoorCarriesTheLimitersNotes() {
        fakes.limits.notes = List.of("limit lenient admitted unchecked (fail: open, redis unavailable)");
        pipeline.rejectMalformed(ctx, "tools/call", null, "invalid-request", -32600, "Invalid JSON-RPC 2.0 message");
        assertEquals("Invalid JSON-RPC 2.0 message; limit lenient admitted unchecked (fail: open, redis unavailable)",
                fakes.audit.of(Kind.DECISION).get(0).detail());
    }

    @Test
    void aDecisionTheAuditLogRefusesMeansNoProviderCall() {
        sources.put(PUBLIC, CONTENT);
        fakes.audit.refuseDecisions = true;
        var refusal = assertThrows(Refusal.class, () -> pipeline.read(ctx, PUBLIC));
        assertEquals(Reason.UNAVAILABLE, refusal.reason());
        assertEquals(0, sources.calls);
        assertEquals(List.of(), fakes.audit.stored);
    }

    @Test
    void aDecisionThatNeverCommitsReleasesNothing() {
        sources.put(PUBLIC, CONTENT);
        fakes.audit.loseDecisions = true;
        // Small content is read while the DECISION commits; its OUTCOME is stored only after the DECISION, so
        // neither is, and the caller is refused rather than answered.
        var refusal = assertThrows(Refusal.class, () -> pipeline.read(ctx, PUBLIC));
        assertEquals(Reason.UNAVAILABLE, refusal.reason());
        assertEquals(List.of(), fakes.audit.stored);
        // A subscription is recorded only once its DECISION is durable.
        journal.clear();
        var again = assertThrows(Refusal.class, () -> pipeline.subscribe(ctx, PUBLIC));
        assertEquals(Reason.UNAVAILABLE, again.reason());
        assertEquals(List.of("limit", "DECISION ALLOW"), journal);
        assertEquals(List.of(), subscribed);
    }

    @Test
    void streamedContentWaitsForItsDecisionAndIsClosedUnsentWhenItCannotCommit() {
        var big = new byte[5000];
        sources.put(PUBLIC, big);
        fakes.audit.loseDecisions = true;
        var refusal = assertThrows(Refusal.class, () -> pipeline(1024).read(ctx, PUBLIC));
        assertEquals(Reason.UNAVAILABLE, refusal.reason());
        assertTrue(sources.closed, "the open stream was closed, nothing of it sent");
    }

    @Test
    void aStreamedReadCommitsItsOutcomeAfterTheLastByteThroughItsTrail() throws Exception {
        var big = new byte[50_000];
        new java.util.Random(5).nextBytes(big);
        sources.put(PUBLIC, big);
        var served = pipeline(1024).read(ctx, PUBLIC);
        var streamed = assertInstanceOf(StreamedRead.class, served.result());
        assertEquals(List.of("limit", "DECISION ALLOW", "provider read " + PUBLIC), journal, "no OUTCOME before the bytes");
        streamed.writeTo(new ByteArrayOutputStream(), new byte[0], new byte[0]);
        assertEquals("OUTCOME ok", journal.get(journal.size() - 1));
        AuditEvent outcome = only(Kind.OUTCOME);
        assertEquals(sha256(big), outcome.contentSha256());
        assertEquals((long) big.length, outcome.bytes());
        AuditEvent correction = fakes.audit.corrections.get(0).get();
        assertEquals("aborted", correction.outcome());
        assertEquals(null, correction.errorCode(), "a streamed response is cut off, not answered with an error");
        assertTrue(correction.detail().endsWith("the response was cut off before its end"), correction.detail());
    }

    @Test
    void aStreamedReadWhoseOutcomeIsNotConfirmedOwesTheLogWhatItSent() throws Exception {
        var big = new byte[50_000];
        new java.util.Random(7).nextBytes(big);
        sources.put(PUBLIC, big);
        fakes.audit.loseOutcomes = true; // the database went away while the content was sent
        var streamed = assertInstanceOf(StreamedRead.class, pipeline(1024).read(ctx, PUBLIC).result());
        assertThrows(java.io.IOException.class, () -> streamed.writeTo(new ByteArrayOutputStream(), new byte[0], new byte[0]));
        assertEquals("OUTCOME aborted (owed)", journal.get(journal.size() - 1), "kept for the log until it can store it");
        AuditEvent owed = fakes.audit.owed.get(0);
        assertEquals((long) big.length, owed.bytes(), "how much went out");
        assertEquals(sha256(big), owed.contentSha256());
        assertTrue(owed.detail().endsWith("the response was cut off before its end"), owed.detail());
    }

    @Test
    void aStreamedReadBrokenOffWhoseOutcomeIsNotConfirmedOwesTheLogWhatWasReadOfIt() {
        var big = new byte[500_000];
        new java.util.Random(8).nextBytes(big);
        sources.put(PUBLIC, big);
        fakes.audit.loseOutcomes = true; // the database went away while the content was sent
        var streamed = assertInstanceOf(StreamedRead.class, pipeline(1024).read(ctx, PUBLIC).result());
        var gone = new java.io.OutputStream() { // the client left after 100,000 bytes
            long written;

            @Override
            public void write(int b) throws java.io.IOException {
                write(new byte[] {(byte) b}, 0, 1);
            }

            @Override
            public void write(byte[] b, int off, int len) throws java.io.IOException {
                written += len;
                if (written > 100_000) {
                    throw new java.io.IOException("connection reset");
                }
            }
        };
        assertThrows(java.io.IOException.class, () -> streamed.writeTo(gone, new byte[0], new byte[0]));
        assertEquals("OUTCOME aborted (owed)", journal.get(journal.size() - 1));
        AuditEvent owed = fakes.audit.owed.get(0);
        assertEquals(null, owed.errorCode(), "cut off, not refused");
        assertTrue(owed.bytes() > 0 && owed.contentSha256() != null, "what was read of it, an upper bound of what was sent");
        assertTrue(owed.detail().endsWith("the response was cut off before its end"), owed.detail());
    }

    @Test
    void aReadsDecisionSaysItWasRefusedShouldItBeStoredAfterItsRequestWasRefused() {
        sources.put(PUBLIC, "hello".getBytes(java.nio.charset.StandardCharsets.UTF_8));
        pipeline.read(ctx, PUBLIC);
        AuditEvent refused = fakes.audit.refusals.get(0).get();
        assertEquals(Kind.OUTCOME, refused.kind());
        assertEquals("aborted", refused.outcome());
        assertEquals(ctx.code(Reason.UNAVAILABLE), refused.errorCode());
        assertTrue(refused.detail().contains("nothing of it was served"), refused.detail());
    }

    @Test
    void aProviderFailureIsRecordedAsTheOutcome() {
        sources.failure = new ResourceNotFoundException(PUBLIC);
        var refusal = assertThrows(Refusal.class, () -> pipeline.read(ctx, PUBLIC));
        assertEquals(Reason.NOT_FOUND, refusal.reason());
        assertEquals(List.of("limit", "DECISION ALLOW", "provider read " + PUBLIC, "OUTCOME not-found"), journal);
        assertEquals(ctx.code(Reason.NOT_FOUND), only(Kind.OUTCOME).errorCode());

        journal.clear();
        fakes.audit.stored.clear();
        sources.failure = new ProviderFailure(ProviderFailure.Kind.TIMEOUT, "docs", 250, null);
        var timedOut = assertThrows(Refusal.class, () -> pipeline.read(ctx, PUBLIC));
        assertEquals(Reason.TIMED_OUT, timedOut.reason());
        assertEquals(250L, timedOut.details().get("timeoutMs"));
        assertEquals("timeout", only(Kind.OUTCOME).outcome());

        fakes.audit.stored.clear();
        sources.failure = new IllegalStateException("disk on fire");
        var broken = assertThrows(Refusal.class, () -> pipeline.read(ctx, PUBLIC));
        assertEquals(Reason.INTERNAL, broken.reason());
        assertEquals("Internal error", broken.getMessage(), "nothing of the cause is told");
        assertEquals("error", only(Kind.OUTCOME).outcome());
    }

    @Test
    void aUriWithoutACanonicalFormIsRefusedBeforeThePolicyIsAsked() {
        var refusal = assertThrows(Refusal.class, () -> pipeline.read(ctx, "file:///docs/../../etc"));
        assertEquals(Reason.INVALID_URI, refusal.reason());
        assertEquals(List.of("limit", "DECISION DENY invalid-uri"), journal);
        assertEquals("file:///docs/../../etc", only(Kind.DECISION).uri(), "recorded as sent");
        assertEquals(0, sources.calls);
    }

    @Test
    void aListingIsOneFilterDecisionThenTheProviderThenItsOutcome() {
        sources.put(PUBLIC, CONTENT);
        sources.put(SECRET, CONTENT);
        var served = pipeline.list(ctx, null);
        assertEquals(List.of("limit", "DECISION FILTER", "provider list", "OUTCOME ok"), journal);
        assertEquals(List.of(PUBLIC), served.result().items().stream().map(e -> e.uri().toString()).toList());
        assertEquals(1, only(Kind.OUTCOME).items());
    }

    @Test
    void aSubscriptionWhoseOutcomeCannotBeRecordedIsTakenOutAgain() {
        fakes.audit.outcomeFailure = new AuditUnavailableException(new IllegalStateException("audit queue full"));
        var refusal = assertThrows(Refusal.class, () -> pipeline.subscribe(ctx, PUBLIC));
        assertEquals(Reason.UNAVAILABLE, refusal.reason());
        assertEquals(List.of("limit", "DECISION ALLOW", "store add " + PUBLIC, "OUTCOME ok", "store remove " + PUBLIC), journal);
        assertEquals(List.of(), subscribed, "no subscription is left for a client answered -32005");
    }

    @Test
    void aFailedSubscribeLeavesTheSubscriptionTheSessionHeldBefore() {
        pipeline.subscribe(ctx, PUBLIC);
        assertEquals(List.of(PUBLIC), subscribed);
        journal.clear();
        fakes.audit.outcomeFailure = new AuditUnavailableException(new IllegalStateException("audit queue full"));
        var refusal = assertThrows(Refusal.class, () -> pipeline.subscribe(ctx, PUBLIC));
        assertEquals(Reason.UNAVAILABLE, refusal.reason());
        assertEquals(List.of("limit", "DECISION ALLOW", "store add " + PUBLIC, "OUTCOME ok"), journal);
        assertEquals(List.of(PUBLIC), subscribed, "the earlier subscribe was answered: its subscription stays");
    }

    @Test
    void unsubscribingIsNotJudgedButIsLimitedAndRecorded() {
        var served = pipeline.unsubscribe(ctx, SECRET);
        assertNotNull(served);
        assertEquals(List.of("limit", "DECISION ALLOW", "store remove " + SECRET, "OUTCOME not-subscribed"), journal);
        assertEquals(List.of(), only(Kind.DECISION).rules());
    }

    private AuditEvent only(Kind kind) {
        var events = fakes.audit.of(kind);
        assertEquals(1, events.size(), "one " + kind + " record: " + events);
        return events.get(0);
    }

    private static String sha256(byte[] bytes) throws Exception {
        return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
    }

    /** One mount, file:///docs/, whose provider holds what a test puts in it; every call goes to the journal. */
    private final class FakeSources implements ContentSources {
        private final Map<String, byte[]> content = new java.util.TreeMap<>();
        private final Mounted docs = new Mounted(new Mount("docs", "fake", UriCanonicalizer.canonicalize("file:///docs/"),
                "file:///docs/", Map.of()), new NoProvider(), false);
        int calls;
        RuntimeException failure;
        boolean closed;

        void put(String uri, byte[] bytes) {
            content.put(uri, bytes);
        }

        private ResourceEntry entry(String uri) {
            return new ResourceEntry(UriCanonicalizer.canonicalize(uri), uri, null, null, "text/plain", null, null);
        }

        @Override
        public Optional<Mounted> resolve(CanonicalUri uri) {
            return uri.isWithin(docs.mount().prefix()) ? Optional.of(docs) : Optional.empty();
        }

        @Override
        public List<Mounted> all() {
            return List.of(docs);
        }

        @Override
        public long shortestTtlMs() {
            return 0;
        }

        @Override
        public OpenedContent read(String subject, Mounted mount, CanonicalUri uri, int bufferLimit) {
            calls++;
            journal.add("provider read " + uri);
            if (failure != null) {
                throw failure;
            }
            byte[] bytes = content.get(uri.toString());
            if (bytes == null) {
                throw new ResourceNotFoundException(uri.toString());
            }
            if (bytes.length <= bufferLimit) {
                return new OpenedContent(entry(uri.toString()), false, bytes, null);
            }
            InputStream rest = new ByteArrayInputStream(bytes, bufferLimit, bytes.length - bufferLimit) {
                @Override
                public void close() {
                    closed = true;
                }
            };
            return new OpenedContent(entry(uri.toString()), false, java.util.Arrays.copyOf(bytes, bufferLimit), rest);
        }

        @Override
        public Page<ResourceEntry> list(String subject, String cursor, int limit, int scanBudget, Predicate<ResourceEntry> visible,
                List<String> skipped) {
            calls++;
            journal.add("provider list");
            return new Page<>(content.keySet().stream().map(this::entry).filter(visible).toList(), null);
        }

        @Override
        public List<String> complete(String subject, Mounted mount, String template, String argument, String prefix,
                Map<String, String> resolved, int limit) {
            calls++;
            journal.add("provider complete");
            return List.of();
        }
    }

    /** The mount's provider: the fake sources answer for it. */
    private static final class NoProvider implements ResourceProvider {
        @Override
        public Page<ResourceEntry> list(String cursor, int limit) {
            throw new UnsupportedOperationException();
        }

        @Override
        public ResourceContent read(CanonicalUri uri) {
            throw new UnsupportedOperationException();
        }

        @Override
        public List<TemplateEntry> templates() {
            return List.of();
        }
    }
}
