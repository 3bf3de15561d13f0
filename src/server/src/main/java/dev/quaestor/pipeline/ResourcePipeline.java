package dev.quaestor.pipeline;

import dev.quaestor.audit.refusals.RecordedRefusal;
import dev.quaestor.policy.Action;
import dev.quaestor.provider.Page;
import dev.quaestor.ratelimit.RateCheck;
import dev.quaestor.provider.ResourceEntry;
import dev.quaestor.provider.ResourceNotFoundException;
import dev.quaestor.provider.TemplateEntry;
import dev.quaestor.subscription.Subscriber;
import dev.quaestor.subscription.SubscriptionLimitException;
import dev.quaestor.subscription.SubscriptionStore;
import dev.quaestor.uri.CanonicalUri;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executor;
import org.jboss.logging.Logger;

/**
 * The request path for resource methods, and the only place that states its order:
 *
 * <ol>
 *   <li><b>Authentication</b>: done by quarkus-oidc before the endpoint runs; the verified
 *       {@link dev.quaestor.identity.Identity} arrives in the {@link RequestContext}. The protocol layer then
 *       refuses a token without the required scopes (403, audited) before anything else.</li>
 *   <li><b>Framing</b>: the protocol layer's own checks of the request's envelope and headers (the
 *       2026-07-28 {@code _meta}, {@code Mcp-Method}/{@code Mcp-Name} against the body), and before them whether the
 *       body can be read as a request at all. A refusal there is audited by {@link #rejectFraming} (one that could not
 *       be read, {@link #rejectMalformed}), which also say what it is charged, and committed before it is answered;
 *       policy is never consulted for such a request.</li>
 *   <li><b>Canonical URI</b>: a URI with no canonical form is refused ({@link Reason#INVALID_URI}); on a revision
 *       that asks for it ({@link Protocol#canonicalUrisOnly}) so is one not already canonical. Audited.</li>
 *   <li><b>Policy decision</b> on the canonical URI, under one policy revision for the whole request.</li>
 *   <li><b>Rate limit</b> from the policy's {@code limits:} ({@link Reason#RATE_LIMITED}), whatever the verdict: every
 *       request pays for what it asks, a refused one as much as an admitted one (a refusal at the steps above too),
 *       and an empty bucket refuses every request, denied or not. It is asked before anything is recorded, so that a
 *       refusal is one record, not two.</li>
 *   <li><b>Denial</b>: audited (one {@code DECISION} record) and stops here ({@link Reason#DENIED}).</li>
 *   <li><b>Audit</b> of the decision (and of a rate-limit refusal), committed before anything is
 *       served (fail closed: {@link Reason#UNAVAILABLE}). A refusal waits for it. An admitted request only queues it and
 *       goes on to the provider while it commits; its outcome record is stored only if the decision
 *       was, so one wait, for the outcome, covers both.</li>
 *   <li><b>Provider</b> call through its mount's guards in {@link ProviderCalls}: the subject's share of the
 *       mount's bulkhead ({@link Reason#RATE_LIMITED}, outcome {@code subject-share}), time box
 *       ({@link Reason#TIMED_OUT}), bulkhead and circuit breaker ({@link Reason#UNAVAILABLE}).</li>
 *   <li><b>Outcome audit</b>: outcome, byte count, SHA-256 of the bytes and latency, committed
 *       before the response is released (fail closed). Content above
 *       {@code quaestor.read.buffer-limit} is not held: it is streamed ({@link StreamedRead}), and its
 *       outcome is committed after the last content byte and before the response's closing bytes; if
 *       that commit fails the response is cut off, never completed.</li>
 * </ol>
 *
 * <p>The order is written once, in {@link #onUri} (a request on one URI) and {@link #perEntry} (a request judged
 * entry by entry); each request method fills in its serve step. One {@link Trail} per request carries what the steps
 * learn, and its verbs alone write the request's records and metrics: {@link Trail#refuse}, {@link Trail#admit},
 * {@link Trail#served}, {@link Trail#failed}.
 *
 * <p>Every refusal is a {@link Refusal} naming its {@link Reason}, already audited; the protocol layer
 * turns it into its own error, and {@link RequestContext#codes()} says which code to record. A refusal's one record
 * goes through the {@link dev.quaestor.audit.refusals.RefusalRecorder}: past its subject's attempt limit it is counted into a
 * summary, and the refusal carries that record ({@link Refusal#pending}) for the protocol layer to answer once it has
 * committed.
 *
 * <p>Results a client may cache carry a {@link CacheHint}: always {@code private} for resources (listings,
 * templates, content), with the mount's {@code ttl-ms} (a listing: the shortest of all mounts'). On a revision that
 * declares it, the scope is recorded in the {@code OUTCOME}.
 *
 * <p>{@code subscriptions/listen} ({@link #listen}) costs one token per URI it names, judges every requested URI, and
 * the list-change filter, with action {@code subscribe} (one {@code DECISION} each) and grants only what the policy
 * allows.
 *
 * <p>{@code resources/subscribe} takes the same path with action {@code subscribe}; its serve
 * step records the subscription in the shared store. {@code resources/unsubscribe} skips the
 * policy decision (it only narrows what is disclosed) but is audited and rate limited. Listings and
 * {@code completion/complete} record a {@code FILTER} decision and judge each entry or value.
 * Notifications are judged again at send time by {@link dev.quaestor.subscription.ChangeNotifier}.
 */
@ApplicationScoped
public class ResourcePipeline {

    private static final Logger LOG = Logger.getLogger(ResourcePipeline.class);

    /** A request's serve step: runs once the request is admitted, and ends with its trail's OUTCOME. */
    @FunctionalInterface
    interface Step<T> {
        /** {@code uri}: the request's canonical URI, or null for a request judged per entry. */
        Served<T> serve(Trail trail, CanonicalUri uri);
    }

    private final Trails trails;
    private final ContentSources sources;
    private final Subscriptions subscriptions;
    private final ListingConfig listing;
    private final ReadConfig readConfig;
    private final Executor digests;
    private final Templates templates;
    private final ListenGrants grants;
    private final ListingCursors cursors;

    @Inject
    ResourcePipeline(Trails trails, ProviderCalls sources, SubscriptionStore subscriptions, ListingConfig listing,
            ReadConfig readConfig, DigestThreads digests) {
        this(trails, sources, Subscriptions.of(subscriptions), listing, readConfig, digests);
    }

    ResourcePipeline(Trails trails, ContentSources sources, Subscriptions subscriptions, ListingConfig listing,
            ReadConfig readConfig, Executor digests) {
        this.trails = trails;
        this.sources = sources;
        this.subscriptions = subscriptions;
        this.listing = listing;
        this.readConfig = readConfig;
        this.digests = digests;
        this.templates = new Templates(sources);
        this.grants = new ListenGrants(sources);
        this.cursors = new ListingCursors(listing.cursorSecret());
    }

    /** The order for a request on one URI: canonical URI, policy decision, rate limit, denial or DECISION, serve. */
    private static <T> Served<T> onUri(Trail trail, String rawUri, boolean judged, Step<T> step) {
        CanonicalUri uri = trail.canonical(rawUri);                  // canonical URI, or refused
        trail.at(uri);
        Verdict verdict = judged ? trail.judge(uri) : Verdict.ALLOW;  // policy decision, not yet recorded
        trail.charge(uri, verdict, 1);                               // rate limit, whatever the verdict
        trail.admit(verdict);                                        // a denial stops here; else its DECISION, queued
        return step.serve(trail, uri);                               // provider, then its OUTCOME
    }

    /** The order for a request judged per entry: rate limit ({@code tokens}), DECISION {@code FILTER}, serve. */
    private static <T> Served<T> perEntry(Trail trail, int tokens, Step<T> step) {
        trail.charge(null, Verdict.FILTER, tokens);
        trail.admit(Verdict.FILTER);
        return step.serve(trail, null);
    }

    public Served<ReadResult> read(RequestContext ctx, String rawUri) {
        return read(ctx, rawUri, Long.MAX_VALUE);
    }

    /**
     * A read whose content is held whole only up to {@code holdAtMost} bytes (and {@code quaestor.read.buffer-limit}):
     * larger content comes back as a {@link StreamedRead}, opened but not read, for the caller to stream or refuse.
     */
    public Served<ReadResult> read(RequestContext ctx, String rawUri, long holdAtMost) {
        int hold = (int) Math.max(0, Math.min(readConfig.bufferLimit(), holdAtMost));
        return onUri(trails.open(ctx, "resources/read", Action.READ), rawUri, true, (trail, uri) -> read(trail, uri, hold));
    }

    private Served<ReadResult> read(Trail trail, CanonicalUri uri, int hold) {
        OpenedContent content;
        long maxBytes;
        try {
            var mounted = sources.resolve(uri).orElseThrow(() -> new ResourceNotFoundException(uri.toString()));
            maxBytes = mounted.mount().longSetting("max-bytes", Long.MAX_VALUE);
            trail.cache(CacheHint.privateFor(mounted.ttlMs()));
            try (var stage = trail.stage("provider")) {
                stage.attribute("quaestor.mount", mounted.mount().name());
                content = sources.read(trail.context().identity().subject(), mounted, uri, hold);
            }
        } catch (RuntimeException e) {
            throw trail.failed(e);
        }
        if (!content.complete()) {
            // Large content: streamed, so its first bytes leave before the OUTCOME exists: the DECISION must be
            // durable first. Its outcome is committed before the response's closing bytes (StreamedRead).
            try {
                trail.durable();
            } catch (Refusal refused) {
                content.discard();
                throw refused;
            }
            return trail.result(new StreamedRead(trail, content, maxBytes, digests));
        }
        // The DECISION committed while the provider read; the OUTCOME is stored only if it was.
        byte[] bytes = content.head();
        trail.served(Outcome.ok().content(bytes.length, sha256(bytes)));
        // Text only if every byte is UTF-8: a provider may judge text by the first bytes (a large file that turned out to
        // fit the buffer), and text decoded with replacements would not be the bytes the OUTCOME's digest is of.
        boolean text = content.text() && Utf8.isValid(bytes);
        return trail.result(new ReadResult.Complete(uri.toString(), content.entry().mimeType(), text, bytes));
    }

    public Served<Page<ResourceEntry>> list(RequestContext ctx, String cursor) {
        // The decision for a listing is per entry: each entry is shown only if the caller may list it.
        return perEntry(trails.open(ctx, "resources/list", Action.LIST), 1, (trail, none) -> {
            Page<ResourceEntry> page;
            var skipped = new ArrayList<String>(0);
            try {
                // The cursor given out is sealed: what a provider's cursor names may be hidden from the caller.
                String subject = ctx.identity().subject();
                String inner = cursor == null ? null : cursors.open(cursor, subject);
                Page<ResourceEntry> found = sources.list(subject, inner, listing.pageSize(), listing.scanBudget(),
                        new ListingFilter(trail.policy(), ctx), skipped);
                page = new Page<>(found.items(), cursors.seal(found.nextCursor(), subject));
            } catch (RuntimeException e) {
                throw trail.failed(e);
            }
            // One page spans every mount: it may be reused no longer than the shortest-lived of them allows.
            trail.cache(CacheHint.privateFor(sources.shortestTtlMs()));
            String left = skipped.isEmpty() ? null : String.join("; ", skipped);
            trail.served(Outcome.ok().listed(page.items().stream().map(e -> e.uri().toString()).toList()).detail(left));
            return trail.result(page);
        });
    }

    public Served<List<TemplateEntry>> templates(RequestContext ctx, String cursor) {
        if (cursor != null) {
            // Templates fit in one page; any cursor is one we did not issue.
            throw new Refusal(Reason.INVALID_ARGUMENT, "Invalid cursor", Map.of());
        }
        Trail trail = trails.open(ctx, "resources/templates/list", Action.LIST);
        return perEntry(trail, 1, (t, none) -> templates.list(t));
    }

    /**
     * {@code resources/subscribe}: the same order as a read, with action {@code subscribe}. The serve step records
     * the subscription in the shared store (the URI must fall in a mount; the resource need not exist yet), once the
     * DECISION is durable. A denial is the same whether or not the URI exists. A subscription whose OUTCOME cannot be
     * recorded is taken out of the store again, so a client answered -32005 is sent no notifications for it.
     */
    public Served<Void> subscribe(RequestContext ctx, String rawUri) {
        return onUri(trails.open(ctx, "resources/subscribe", Action.SUBSCRIBE), rawUri, true, (trail, uri) -> {
            trail.durable();
            String text = uri.toString();
            if (sources.resolve(uri).isEmpty()) {
                throw trail.failed("not-found", null,
                        new Refusal(Reason.NOT_FOUND, "Resource not found", Refusal.uriData(text)));
            }
            boolean added;
            try {
                added = subscriptions.add(ctx.sessionId(), text, new Subscriber(ctx.identity(), ctx.sourceIp()));
            } catch (SubscriptionLimitException e) {
                var data = Refusal.uriData(text);
                data.put("maxSubscriptions", e.max());
                throw trail.failed("too-many-subscriptions", e.getMessage(),
                        new Refusal(Reason.TOO_MANY_SUBSCRIPTIONS, "Too many subscriptions for one MCP session", data));
            } catch (RuntimeException e) {
                throw storeFailure(trail, e);
            }
            try {
                trail.served(Outcome.ok());
            } catch (RuntimeException e) {
                if (added) {
                    withdraw(ctx, text);
                }
                throw e;
            }
            return trail.result(null);
        });
    }

    /**
     * Takes out a subscription this request stored but could not record the OUTCOME of (one the session held before
     * stays). Best effort: if the store fails now, that is logged, and the subscription lives until its session ends.
     */
    private void withdraw(RequestContext ctx, String uri) {
        try {
            subscriptions.remove(ctx.sessionId(), uri);
        } catch (RuntimeException e) {
            LOG.errorf("request %s: the subscription to %s, whose record could not be committed, could not be removed: %s",
                    ctx.requestId(), uri, e.toString());
        }
    }

    /**
     * Opening a 2025 session ({@code initialize}) pays one token of the caller's limits that cover every resource
     * ({@code resources: ["**"]}, action {@code list}), as a listing does, so opening sessions is limited like any
     * other request. Nothing is judged by policy; a refusal's one record is its {@code DECISION} ({@code DENY},
     * outcome {@code rate-limited}).
     *
     * @throws Refusal when the caller's rate limit is spent
     */
    public RateCheck chargeSession(RequestContext ctx) {
        Trail trail = trails.open(ctx, "initialize", Action.LIST);
        trail.charge(null, Verdict.DENY, 1);
        return trail.rate();
    }

    /**
     * {@code resources/unsubscribe}: removing one's own subscription only narrows what is disclosed,
     * so it is not judged by policy (its DECISION record says ALLOW with no rule); it is audited and
     * rate limited like everything else. Unsubscribing from something not subscribed succeeds.
     */
    public Served<Void> unsubscribe(RequestContext ctx, String rawUri) {
        return onUri(trails.open(ctx, "resources/unsubscribe", Action.SUBSCRIBE), rawUri, false, (trail, uri) -> {
            trail.durable();
            boolean removed;
            try {
                removed = subscriptions.remove(ctx.sessionId(), uri.toString());
            } catch (RuntimeException e) {
                throw storeFailure(trail, e);
            }
            trail.served(Outcome.of(removed ? "ok" : "not-subscribed"));
            return trail.result(null);
        });
    }

    /**
     * {@code subscriptions/listen}: every requested URI, and the list-change filter, judged by policy with
     * action {@code subscribe}, each its own {@code DECISION} record ({@code ALLOW} or {@code DENY} with the
     * deciding rules), under one rate-limit check for the request (its {@code DECISION} {@code FILTER}), one token
     * per URI it names; an {@code OUTCOME} says how many were granted. Only what is granted is returned: a URI the
     * caller may not subscribe to, or one outside every mount, is simply absent, the same whether or not it exists.
     * Every record is committed before this returns, since the acknowledgement discloses the grant.
     */
    public Served<ListenGrant> listen(RequestContext ctx, List<String> rawUris, boolean listChanged, int maxUris) {
        Trail trail = trails.open(ctx, "subscriptions/listen", Action.SUBSCRIBE);
        if (rawUris.size() > maxUris) {
            trail.charge(null, Verdict.DENY, 1);
            var data = new LinkedHashMap<String, Object>();
            data.put("maxSubscriptions", maxUris);
            throw trail.refuse(Verdict.DENY, "too-many-subscriptions",
                    rawUris.size() + " URIs requested; at most " + maxUris, new Refusal(Reason.TOO_MANY_SUBSCRIPTIONS,
                            "Too many resource subscriptions in one listen request", data));
        }
        var uris = new LinkedHashMap<String, CanonicalUri>();
        for (String raw : rawUris) {
            CanonicalUri u = trail.canonical(raw);
            uris.putIfAbsent(u.toString(), u);
        }
        return perEntry(trail, Math.max(1, uris.size()), (t, none) -> grants.grant(t, uris, listChanged));
    }

    /**
     * A request the protocol layer refused for its framing (its envelope, or headers that disagree with
     * its body) before the path began: its only record, a {@code DECISION} {@code DENY} saying what was
     * wrong, committed before the refusal is answered. Policy is never consulted for such a request.
     *
     * @param method the method the body named, as sent (cut to the audit column's length)
     * @param action the policy action the method would have taken, if it is a resource method, else null
     * @param uri the URI the body named, as sent, if any
     * @return the refusal's record: the answer carries its request id, once it has committed (a summary may not
     *         have yet: {@link RecordedRefusal#merged})
     * @throws Refusal when the caller's rate limit is spent (its bucket refuses every request, a malformed one too)
     */
    public RecordedRefusal rejectFraming(RequestContext ctx, String method, Action action, String uri, String outcome,
            int errorCode, String detail) {
        Trail trail = trails.open(ctx, column(method), action);
        trail.at(uri);
        trail.charge(null, Verdict.DENY, 1);
        return trail.rejected(outcome, errorCode, detail);
    }

    /**
     * A request the protocol layer refused at the door, before it could be read as a request at all (its body could
     * not be parsed, or is not a request of its protocol): recorded as {@link #rejectFraming} records, with no action,
     * since what it would have asked is not known. It pays one token of the caller's limits over every resource
     * (action {@code list}), as opening a session does, so that malformed requests cost what any request costs.
     *
     * @param method the method the body named, if it can be read (cut to the audit column's length), else null
     * @param uri the URI the body named, if it can be read, else null
     * @param errorCode the JSON-RPC error code answered, or null for an answer that carries none (a bare HTTP status)
     * @throws Refusal when the caller's rate limit is spent
     */
    public RecordedRefusal rejectMalformed(RequestContext ctx, String method, String uri, String outcome, Integer errorCode,
            String detail) {
        Trail trail = trails.open(ctx, column(method), null);
        trail.at(uri);
        trail.charge(Action.LIST, null, Verdict.DENY, 1);
        return trail.rejected(outcome, errorCode, detail);
    }

    /**
     * A request refused at the door and answered before its record (a body that broke off: its connection is gone by
     * the time a record commits). Charged as {@link #rejectMalformed} is, but its one record is the refusal it was
     * answered with even when the bucket is empty or the rate limiter cannot be asked, its detail then naming the limit
     * it was not charged to and why: a record never claims an answer that was not given.
     */
    public RecordedRefusal recordAnswered(RequestContext ctx, String outcome, String detail) {
        Trail trail = trails.open(ctx, null, null);
        String uncharged = trail.chargeAnswered(Action.LIST, 1);
        return trail.rejected(outcome, null, uncharged == null ? detail : detail + "; " + uncharged);
    }

    /** A method as the client sent it, cut to the audit column's length. */
    private static String column(String method) {
        return method == null || method.length() <= 64 ? method : method.substring(0, 64);
    }

    /**
     * {@code completion/complete} for an argument of a resource template ({@link Templates#complete}). Audited like
     * a listing (DECISION FILTER, OUTCOME with the number of values disclosed).
     */
    public Served<Completions> complete(RequestContext ctx, String templateText, String argument, String value,
            Map<String, String> resolved) {
        var ask = new Templates.Ask(templateText, argument, value, resolved);
        Trail trail = trails.open(ctx, "completion/complete", Action.READ);
        return perEntry(trail, 1, (t, none) -> templates.complete(t, ask));
    }

    /** The subscription store (the database) failed: audited, and refused like an unwritable audit log. */
    private static Refusal storeFailure(Trail trail, RuntimeException e) {
        LOG.errorf("subscription store failed for request %s: %s", trail.context().requestId(), e.toString());
        return trail.failed("store-unavailable", null, new Refusal(Reason.UNAVAILABLE,
                "Service unavailable: subscriptions cannot be recorded", Refusal.uriData(trail.uri())));
    }

    static String sha256(byte[] bytes) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
