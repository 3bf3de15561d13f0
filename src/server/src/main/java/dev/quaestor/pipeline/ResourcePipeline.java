package dev.quaestor.pipeline;

import dev.quaestor.audit.AuditEvent;
import dev.quaestor.audit.AuditEvent.Kind;
import dev.quaestor.audit.AuditLog;
import dev.quaestor.audit.AuditUnavailableException;
import dev.quaestor.audit.PendingCommit;
import dev.quaestor.audit.RecordedRefusal;
import dev.quaestor.audit.RefusalRecorder;
import dev.quaestor.policy.Action;
import dev.quaestor.policy.Decision;
import dev.quaestor.policy.PolicySet;
import dev.quaestor.policy.PolicyStore;
import dev.quaestor.provider.ContentTooLargeException;
import dev.quaestor.provider.InvalidCursorException;
import dev.quaestor.provider.mounts.MountTable;
import dev.quaestor.provider.Page;
import dev.quaestor.provider.ResourceEntry;
import dev.quaestor.provider.ResourceNotFoundException;
import dev.quaestor.provider.TemplateEntry;
import dev.quaestor.ratelimit.RateCheck;
import dev.quaestor.ratelimit.RateLimitUnavailableException;
import dev.quaestor.ratelimit.RateLimiter;
import dev.quaestor.uri.CanonicalUri;
import dev.quaestor.uri.InvalidUriException;
import dev.quaestor.uri.UriCanonicalizer;
import dev.quaestor.uri.UriTemplate;
import dev.quaestor.subscription.Subscriber;
import dev.quaestor.subscription.SubscriptionLimitException;
import dev.quaestor.subscription.SubscriptionStore;
import jakarta.enterprise.context.ApplicationScoped;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jboss.logging.Logger;

/**
 * The request path for resource methods, and the only place that states its order:
 *
 * <ol>
 *   <li><b>Authentication</b>: done by quarkus-oidc before the endpoint runs; the verified
 *       {@link dev.quaestor.identity.Identity} arrives in the {@link RequestContext}. The protocol layer then
 *       refuses a token without the required scopes (403, audited) before anything else.</li>
 *   <li><b>Framing</b>: the protocol layer's own checks of the request's envelope and headers (the
 *       2026-07-28 {@code _meta}, {@code Mcp-Method}/{@code Mcp-Name} against the body). A refusal there is
 *       audited by {@link #rejectFraming} and committed before it is answered; policy is never consulted for
 *       such a request.</li>
 *   <li><b>Canonical URI</b>: a URI with no canonical form is refused ({@link Reason#INVALID_URI}); on a revision
 *       that asks for it ({@link Revision#canonicalUrisOnly}) so is one not already canonical. Audited.</li>
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
 *   <li><b>Provider</b> call through its mount's guards in {@link ProviderCalls}: time box
 *       ({@link Reason#TIMED_OUT}), bulkhead and circuit breaker ({@link Reason#UNAVAILABLE}).</li>
 *   <li><b>Outcome audit</b>: outcome, byte count, SHA-256 of the bytes and latency, committed
 *       before the response is released (fail closed). Content above
 *       {@code quaestor.read.buffer-limit} is not held: it is streamed ({@link StreamedRead}), and its
 *       outcome is committed after the last content byte and before the response's closing bytes; if
 *       that commit fails the response is cut off, never completed.</li>
 * </ol>
 *
 * <p>Every refusal is a {@link Refusal} naming its {@link Reason}, already audited; the protocol layer
 * turns it into its own error, and {@link RequestContext#codes()} says which code to record. A refusal's one record
 * goes through the {@link RefusalRecorder}: past its subject's attempt limit it is counted into a summary, and the
 * refusal carries that record ({@link Refusal#pending}) for the protocol layer to answer once it has committed.
 *
 * <p>Results a client may cache carry a {@link CacheHint}: always {@code private} for resources (listings,
 * templates, content), with the mount's {@code ttl-ms} (a listing: the shortest of all mounts'). On a revision that
 * declares it, the scope is recorded in the {@code OUTCOME}.
 *
 * <p>{@code subscriptions/listen} ({@link #listen}) costs one token per URI it names, judges every requested URI, and
 * the list-change filter, with action {@code subscribe} (one {@code DECISION} each) and grants only what the policy
 * allows.
 *
 * <p>{@code resources/subscribe} takes the same path with action {@code subscribe}; its "provider"
 * step records the subscription in the shared store. {@code resources/unsubscribe} skips the
 * policy decision (it only narrows what is disclosed) but is audited and rate limited. Listings and
 * {@code completion/complete} record a {@code FILTER} decision and judge each entry or value.
 * Notifications are judged again at send time by {@link dev.quaestor.subscription.ChangeNotifier}.
 */
@ApplicationScoped
public class ResourcePipeline {

    private static final Logger LOG = Logger.getLogger(ResourcePipeline.class);

    private final PolicyStore policies;
    private final AuditLog audit;
    private final RateLimiter limiter;
    private final MountTable mounts;
    private final ProviderCalls calls;
    private final ListingConfig listing;
    private final PipelineMetrics metrics;
    private final StageSpans spans;
    private final ReadConfig readConfig;
    private final SubscriptionStore subscriptions;
    private final DigestThreads digests;
    private final RefusalRecorder refusals;

    /** Completion values returned at most (the MCP limit). */
    static final int MAX_COMPLETIONS = 100;
    /** Candidates asked of a provider for one completion, before the policy filter. */
    static final int COMPLETION_SCAN = 1000;

    ResourcePipeline(PolicyStore policies, AuditLog audit, RateLimiter limiter, MountTable mounts, ProviderCalls calls,
            ListingConfig listing, PipelineMetrics metrics, StageSpans spans, ReadConfig readConfig,
            SubscriptionStore subscriptions, DigestThreads digests, RefusalRecorder refusals) {
        this.policies = policies;
        this.audit = audit;
        this.limiter = limiter;
        this.mounts = mounts;
        this.calls = calls;
        this.listing = listing;
        this.metrics = metrics;
        this.spans = spans;
        this.readConfig = readConfig;
        this.subscriptions = subscriptions;
        this.digests = digests;
        this.refusals = refusals;
    }

    public Served<ReadResult> read(RequestContext ctx, String rawUri) {
        long start = System.nanoTime();
        String method = "resources/read";
        PolicySet policy = policies.current();
        CanonicalUri uri = canonicalOrRefuse(ctx, method, Action.READ, rawUri, policy, start);
        String uriText = uri.toString();

        Decision decision = judge(ctx, method, Action.READ, uri, policy);
        RateCheck rate = charge(ctx, method, Action.READ, uri, uriText, verdict(decision), decision.rules(), policy, start, 1);
        refuseIfDenied(ctx, method, Action.READ, uri, rawUri, decision, policy, start);
        // The DECISION commits while the provider reads. Nothing is released before the OUTCOME has committed,
        // and the OUTCOME is stored only if the DECISION was (streamed content waits for the DECISION itself).
        Admitted admitted = new Admitted(rate, decision(ctx, method, Action.READ, uriText, "ALLOW", decision.rules(), policy,
                null, null, null));

        OpenedContent content;
        long maxBytes;
        CacheHint cache;
        try {
            var mounted = mounts.resolve(uri).orElseThrow(() -> new ResourceNotFoundException(uriText));
            maxBytes = mounted.mount().longSetting("max-bytes", Long.MAX_VALUE);
            cache = CacheHint.privateFor(mounted.ttlMs());
            try (var stage = spans.start("provider", method)) {
                stage.attribute("quaestor.mount", mounted.mount().name());
                content = calls.read(mounted, uri, readConfig.bufferLimit());
            }
        } catch (RuntimeException e) {
            throw providerFailure(ctx, admitted, method, Action.READ, uriText, policy, start, e);
        }

        ResourceEntry e = content.entry();
        if (!content.complete()) {
            // Large content: streamed, so its first bytes leave before the OUTCOME exists: the DECISION must be
            // durable first. Its outcome is committed before the response's closing bytes (StreamedRead).
            try {
                awaitCommit(admitted.decision());
            } catch (Refusal refused) {
                content.discard();
                throw refused;
            }
            String scope = declared(ctx, cache);
            return new Served<>(new StreamedRead(uriText, e.mimeType(), content.text(), content.head(), content.rest(),
                    maxBytes, (outcome, errorCode, bytes, sha256, detail) -> outcome(ctx, null, method, Action.READ, uriText,
                            policy, outcome, errorCode, bytes, null, sha256, "ok".equals(outcome) ? scope : null, start,
                            joinDetails(rate.auditDetail(), detail)), digests), rate, cache);
        }
        byte[] bytes = content.head();
        String sha256 = sha256(bytes);
        outcome(ctx, admitted.decision(), method, Action.READ, uriText, policy, "ok", null, (long) bytes.length, null, sha256,
                declared(ctx, cache), start, rate.auditDetail());
        return new Served<>(new ReadResult.Complete(uriText, e.mimeType(), content.text(), bytes), rate, cache);
    }

    public Served<Page<ResourceEntry>> list(RequestContext ctx, String cursor) {
        long start = System.nanoTime();
        String method = "resources/list";
        PolicySet policy = policies.current();
        // The decision for a listing is per entry: each entry is shown only if the caller may list it.
        Admitted admitted = admit(ctx, method, Action.LIST, policy, start, 1);
        RateCheck rate = admitted.rate();
        Page<ResourceEntry> page;
        var skipped = new ArrayList<String>(0);
        try {
            page = calls.list(mounts, cursor, listing.pageSize(), listing.scanBudget(), new ListingFilter(policy, ctx), skipped);
        } catch (RuntimeException e) {
            throw providerFailure(ctx, admitted, method, Action.LIST, null, policy, start, e);
        }
        // One page spans every mount: it may be reused no longer than the shortest-lived of them allows.
        CacheHint cache = CacheHint.privateFor(mounts.shortestTtlMs());
        outcome(ctx, admitted.decision(), method, Action.LIST, null, policy, "ok", null, null, page.items().size(), null,
                declared(ctx, cache), start, joinDetails(rate.auditDetail(), skipped.isEmpty() ? null : String.join("; ", skipped)));
        return new Served<>(page, rate, cache);
    }

    public Served<List<TemplateEntry>> templates(RequestContext ctx, String cursor) {
        long start = System.nanoTime();
        String method = "resources/templates/list";
        if (cursor != null) {
            // Templates fit in one page; any cursor is one we did not issue.
            throw new Refusal(Reason.INVALID_ARGUMENT, "Invalid cursor", Map.of());
        }
        PolicySet policy = policies.current();
        Admitted admitted = admit(ctx, method, Action.LIST, policy, start, 1);
        var out = new ArrayList<TemplateEntry>();
        for (var m : mounts.all()) {
            for (var t : m.provider().templates()) {
                CanonicalUri under = literalPrefix(t.uriTemplate());
                if (under != null && policy.mayAllowBelow(ctx.identity(), Action.READ, under, ctx.facts())) {
                    out.add(t);
                }
            }
        }
        // Filtered by policy, so private; every mount contributes, so the shortest of their lifetimes.
        CacheHint cache = CacheHint.privateFor(mounts.shortestTtlMs());
        outcome(ctx, admitted.decision(), method, Action.LIST, null, policy, "ok", null, null, out.size(), null,
                declared(ctx, cache), start, admitted.rate().auditDetail());
        return new Served<>(List.copyOf(out), admitted.rate(), cache);
    }

    /**
     * {@code resources/subscribe}: the same order as a read, with action {@code subscribe}. The
     * "provider" step records the subscription in the shared store (the URI must fall in a mount;
     * the resource need not exist yet). A denial is the same whether or not the URI exists.
     */
    public Served<Void> subscribe(RequestContext ctx, String rawUri) {
        long start = System.nanoTime();
        String method = "resources/subscribe";
        PolicySet policy = policies.current();
        CanonicalUri uri = canonicalOrRefuse(ctx, method, Action.SUBSCRIBE, rawUri, policy, start);
        String uriText = uri.toString();

        Decision decision = judge(ctx, method, Action.SUBSCRIBE, uri, policy);
        RateCheck rate = charge(ctx, method, Action.SUBSCRIBE, uri, uriText, verdict(decision), decision.rules(), policy,
                start, 1);
        refuseIfDenied(ctx, method, Action.SUBSCRIBE, uri, rawUri, decision, policy, start);
        awaitCommit(decision(ctx, method, Action.SUBSCRIBE, uriText, "ALLOW", decision.rules(), policy, null, null, null));

        if (mounts.resolve(uri).isEmpty()) {
            outcome(ctx, null, method, Action.SUBSCRIBE, uriText, policy, "not-found", ctx.code(Reason.NOT_FOUND), null, null,
                    null, start, rate.auditDetail());
            throw new Refusal(Reason.NOT_FOUND, "Resource not found", uriData(uriText));
        }
        try {
            subscriptions.add(ctx.sessionId(), uriText, new Subscriber(ctx.identity(), ctx.sourceIp()));
        } catch (SubscriptionLimitException e) {
            outcome(ctx, null, method, Action.SUBSCRIBE, uriText, policy, "too-many-subscriptions",
                    ctx.code(Reason.TOO_MANY_SUBSCRIPTIONS), null, null, null, start, e.getMessage());
            var data = uriData(uriText);
            data.put("maxSubscriptions", e.max());
            throw new Refusal(Reason.TOO_MANY_SUBSCRIPTIONS, "Too many subscriptions for one MCP session", data);
        } catch (RuntimeException e) {
            throw storeFailure(ctx, method, uriText, policy, start, e);
        }
        outcome(ctx, null, method, Action.SUBSCRIBE, uriText, policy, "ok", null, null, null, null, start, rate.auditDetail());
        return new Served<>(null, rate);
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
        return charge(ctx, "initialize", Action.LIST, null, null, "DENY", List.of(), policies.current(), System.nanoTime(), 1);
    }

    /**
     * {@code resources/unsubscribe}: removing one's own subscription only narrows what is disclosed,
     * so it is not judged by policy (its DECISION record says ALLOW with no rule); it is audited and
     * rate limited like everything else. Unsubscribing from something not subscribed succeeds.
     */
    public Served<Void> unsubscribe(RequestContext ctx, String rawUri) {
        long start = System.nanoTime();
        String method = "resources/unsubscribe";
        PolicySet policy = policies.current();
        CanonicalUri uri = canonicalOrRefuse(ctx, method, Action.SUBSCRIBE, rawUri, policy, start);
        String uriText = uri.toString();
        RateCheck rate = charge(ctx, method, Action.SUBSCRIBE, uri, uriText, "ALLOW", List.of(), policy, start, 1);
        awaitCommit(decision(ctx, method, Action.SUBSCRIBE, uriText, "ALLOW", List.of(), policy, null, null, null));
        boolean removed;
        try {
            removed = subscriptions.remove(ctx.sessionId(), uriText);
        } catch (RuntimeException e) {
            throw storeFailure(ctx, method, uriText, policy, start, e);
        }
        outcome(ctx, null, method, Action.SUBSCRIBE, uriText, policy, removed ? "ok" : "not-subscribed", null, null, null, null,
                start, rate.auditDetail());
        return new Served<>(null, rate);
    }

    /**
     * {@code subscriptions/listen}: every requested URI, and the list-change filter, judged by policy with
     * action {@code subscribe}, each its own {@code DECISION} record ({@code ALLOW} or {@code DENY} with the
     * deciding rules), under one rate-limit check for the request (its {@code DECISION} {@code FILTER}); an
     * {@code OUTCOME} says how many were granted. Only what is granted is returned: a URI the caller may not
     * subscribe to, or one outside every mount, is simply absent, the same whether or not it exists. Every
     * record is committed before this returns, since the acknowledgement discloses the grant.
     */
    public Served<ListenGrant> listen(RequestContext ctx, List<String> rawUris, boolean listChanged, int maxUris) {
        long start = System.nanoTime();
        String method = "subscriptions/listen";
        PolicySet policy = policies.current();
        if (rawUris.size() > maxUris) {
            charge(ctx, method, Action.SUBSCRIBE, null, null, "DENY", List.of(), policy, start, 1);
            var data = new LinkedHashMap<String, Object>();
            data.put("maxSubscriptions", maxUris);
            throw refused(ctx, method, Action.SUBSCRIBE, null, "DENY", List.of(), policy, start, "too-many-subscriptions",
                    Reason.TOO_MANY_SUBSCRIPTIONS, rawUris.size() + " URIs requested; at most " + maxUris,
                    "Too many resource subscriptions in one listen request", data);
        }
        var uris = new LinkedHashMap<String, CanonicalUri>();
        for (String raw : rawUris) {
            CanonicalUri u = canonicalOrRefuse(ctx, method, Action.SUBSCRIBE, raw, policy, start);
            uris.putIfAbsent(u.toString(), u);
        }
        // One token per URI it names (at least one): each is judged and recorded, and may be notified about.
        Admitted admitted = admit(ctx, method, Action.SUBSCRIBE, policy, start, Math.max(1, uris.size()));
        var pending = new ArrayList<PendingCommit>();
        var granted = new ArrayList<String>();
        try (var stage = spans.start("policy", method)) {
            for (var e : uris.entrySet()) {
                Decision d = policy.decide(ctx.identity(), Action.SUBSCRIBE, e.getValue(), ctx.facts());
                boolean mounted = mounts.resolve(e.getValue()).isPresent();
                if (d.allowed() && mounted) {
                    granted.add(e.getKey());
                }
                pending.add(decision(ctx, method, Action.SUBSCRIBE, e.getKey(), d.allowed() ? "ALLOW" : "DENY", d.rules(),
                        policy, d.allowed() ? (mounted ? null : "not-mounted") : "not-granted", null, null));
            }
            stage.outcome(granted.size() == uris.size() ? "allow" : "filter");
        }
        boolean listGranted = false;
        if (listChanged) {
            for (var m : mounts.all()) {
                if (policy.mayAllowBelow(ctx.identity(), Action.SUBSCRIBE, m.mount().prefix(), ctx.facts())) {
                    listGranted = true;
                    break;
                }
            }
            pending.add(decision(ctx, method, Action.SUBSCRIBE, null, listGranted ? "ALLOW" : "DENY", List.of(), policy,
                    listGranted ? null : "not-granted", null, "resourcesListChanged"));
        }
        for (PendingCommit p : pending) {
            awaitCommit(p);
        }
        String summary = "granted " + granted.size() + " of " + uris.size() + " resource subscriptions"
                + (listChanged ? "; resourcesListChanged " + (listGranted ? "granted" : "not granted") : "");
        outcome(ctx, admitted.decision(), method, Action.SUBSCRIBE, null, policy, "ok", null, null, granted.size(), null, start,
                joinDetails(admitted.rate().auditDetail(), summary));
        return new Served<>(new ListenGrant(granted, listGranted), admitted.rate());
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
        long start = System.nanoTime();
        String m = method == null ? null : method.length() <= 64 ? method : method.substring(0, 64);
        PolicySet policy = policies.current();
        charge(ctx, m, action, null, uri, "DENY", List.of(), policy, start, 1);
        return record(ctx, m, action, uri, "DENY", List.of(), policy, outcome, errorCode, detail);
    }

    /**
     * {@code completion/complete} for an argument of a resource template: the mount's provider
     * proposes values (if it can enumerate them) and only those whose expanded URI the caller may
     * read are returned, at most {@link #MAX_COMPLETIONS}. Audited like a listing (DECISION FILTER,
     * OUTCOME with the number of values disclosed).
     */
    public Served<Completions> complete(RequestContext ctx, String templateText, String argument, String value,
            Map<String, String> resolved) {
        long start = System.nanoTime();
        String method = "completion/complete";
        PolicySet policy = policies.current();
        Admitted admitted = admit(ctx, method, Action.READ, policy, start, 1);
        RateCheck rate = admitted.rate();
        String detail = "template " + truncate(templateText) + " argument " + truncate(argument);

        MountTable.Mounted owner = null;
        UriTemplate template = null;
        for (var m : mounts.all()) {
            for (var t : m.provider().templates()) {
                if (t.uriTemplate().equals(templateText)) {
                    owner = m;
                    template = UriTemplate.parse(t.uriTemplate());
                }
            }
        }
        if (template == null || !template.variables().contains(argument)) {
            outcome(ctx, admitted.decision(), method, Action.READ, null, policy, "invalid-params",
                    ctx.code(Reason.INVALID_ARGUMENT), null, null, null, start, detail);
            throw new Refusal(Reason.INVALID_ARGUMENT, template == null ? "Unknown resource template"
                    : "The template has no argument named " + truncate(argument), Map.of());
        }
        var known = new LinkedHashMap<String, String>();
        for (var e : resolved.entrySet()) {
            if (template.variables().contains(e.getKey()) && !e.getKey().equals(argument)) {
                known.put(e.getKey(), e.getValue());
            }
        }
        List<String> candidates;
        try {
            candidates = calls.complete(owner, templateText, argument, value, Map.copyOf(known), COMPLETION_SCAN);
        } catch (RuntimeException e) {
            throw providerFailure(ctx, admitted, method, Action.READ, null, policy, start, e);
        }
        var values = new ArrayList<String>();
        boolean more = candidates.size() >= COMPLETION_SCAN;
        for (String candidate : candidates) {
            if (candidate == null || !candidate.startsWith(value)) {
                continue;
            }
            var values1 = new LinkedHashMap<>(known);
            values1.put(argument, candidate);
            if (mayRead(ctx, policy, template, values1, candidate.endsWith("/"))) {
                if (values.size() == MAX_COMPLETIONS) {
                    more = true;
                    break;
                }
                values.add(candidate);
            }
        }
        outcome(ctx, admitted.decision(), method, Action.READ, null, policy, "ok", null, null, values.size(), null, start,
                joinDetails(rate.auditDetail(), detail));
        return new Served<>(new Completions(List.copyOf(values), more), rate);
    }

    /**
     * Whether the caller may read the URI a completed value leads to: the resource itself when every
     * variable has a value, else (a folder, or later variables still open) anything below the
     * literal part the values fix.
     */
    private static boolean mayRead(RequestContext ctx, PolicySet policy, UriTemplate template, Map<String, String> values,
            boolean folder) {
        String text = template.text();
        int open = -1;
        for (String v : template.variables()) {
            if (!values.containsKey(v)) {
                int at = firstExpression(text, v);
                open = open < 0 ? at : Math.min(open, at);
            }
        }
        try {
            if (open < 0 && !folder) {
                CanonicalUri uri = UriCanonicalizer.canonicalize(template.expand(values));
                return policy.decide(ctx.identity(), Action.READ, uri, ctx.facts()).allowed();
            }
            String expanded = open < 0 ? template.expand(values) : UriTemplate.parse(text.substring(0, open)).expand(values);
            CanonicalUri below = literalPrefix(expanded + (open < 0 ? "" : "{rest}"));
            return below != null && policy.mayAllowBelow(ctx.identity(), Action.READ, below, ctx.facts());
        } catch (InvalidUriException | IllegalArgumentException e) {
            return false;
        }
    }

    private static int firstExpression(String template, String variable) {
        for (String form : new String[] {"{" + variable + "}", "{+" + variable + "}", "{#" + variable + "}"}) {
            int at = template.indexOf(form);
            if (at >= 0) {
                return at;
            }
        }
        return template.length();
    }

    private static String truncate(String s) {
        return s == null || s.length() <= 200 ? s : s.substring(0, 200) + "...";
    }

    /**
     * The canonical URI, or an audited -32602 for a URI that has none, and on a revision that asks for
     * canonical URIs only ({@link Revision#canonicalUrisOnly}), for one that is not already canonical: the
     * answer then names the canonical form, and nothing is judged or served under another string than the
     * one the client sent.
     */
    private CanonicalUri canonicalOrRefuse(RequestContext ctx, String method, Action action, String rawUri, PolicySet policy,
            long start) {
        CanonicalUri uri;
        try {
            uri = UriCanonicalizer.canonicalize(rawUri);
        } catch (InvalidUriException e) {
            // Without a canonical form, only limits over every resource ("**") can apply to it.
            charge(ctx, method, action, null, rawUri, "DENY", List.of(), policy, start, 1);
            throw refused(ctx, method, action, rawUri, "DENY", List.of(), policy, start, "refused", Reason.INVALID_URI, null,
                    "Invalid resource URI: " + e.getMessage(), uriData(rawUri));
        }
        if (ctx.revision().canonicalUrisOnly() && !uri.toString().equals(rawUri)) {
            charge(ctx, method, action, uri, rawUri, "DENY", List.of(), policy, start, 1);
            var data = uriData(rawUri);
            data.put("canonicalUri", uri.toString());
            throw refused(ctx, method, action, rawUri, "DENY", List.of(), policy, start, "non-canonical-uri", Reason.INVALID_URI,
                    "canonical form: " + truncate(uri.toString()),
                    "Resource URI is not in canonical form; use " + truncate(uri.toString()), data);
        }
        return uri;
    }

    /** The subscription store (the database) failed: audited, and refused like an unwritable audit log. */
    private Refusal storeFailure(RequestContext ctx, String method, String uri, PolicySet policy, long start,
            RuntimeException e) {
        LOG.errorf("subscription store failed for request %s: %s", ctx.requestId(), e.toString());
        outcome(ctx, null, method, Action.SUBSCRIBE, uri, policy, "store-unavailable", ctx.code(Reason.UNAVAILABLE), null, null,
                null, start, null);
        return new Refusal(Reason.UNAVAILABLE, "Service unavailable: subscriptions cannot be recorded", uriData(uri));
    }

    /** The canonical URI of a template's text before its first variable, trimmed to whole segments. */
    private static CanonicalUri literalPrefix(String template) {
        int brace = template.indexOf('{');
        String literal = brace < 0 ? template : template.substring(0, brace);
        int sep = literal.indexOf("://");
        int cut = literal.lastIndexOf('/');
        if (brace >= 0 && cut > sep + 2) {
            literal = literal.substring(0, cut);
        } else if (brace >= 0) {
            literal = literal.substring(0, sep + 3);
        }
        try {
            return UriCanonicalizer.canonicalize(literal);
        } catch (InvalidUriException e) {
            return null;
        }
    }

    /** A request past the policy and the limiter: its rate check and its {@code DECISION}, queued and maybe not yet durable. */
    private record Admitted(RateCheck rate, PendingCommit decision) {
    }

    /**
     * For a request judged per entry (a listing, a completion, a listen): {@link #charge} {@code tokens}, then queue
     * its {@code DECISION FILTER} without waiting: the caller may work while it commits, and discloses nothing until
     * its {@code OUTCOME}, stored only after the {@code DECISION}, has committed.
     */
    private Admitted admit(RequestContext ctx, String method, Action action, PolicySet policy, long start, int tokens) {
        RateCheck rate = charge(ctx, method, action, null, null, "FILTER", List.of(), policy, start, tokens);
        return new Admitted(rate, decision(ctx, method, action, null, "FILTER", List.of(), policy, null, null, null));
    }

    /**
     * The rate limit: spends {@code tokens} of every limit that applies to the request, whatever its verdict, so that a
     * refused request costs what an admitted one does. An empty bucket refuses the request, denied or not: its one
     * record is the {@code DECISION} with the verdict it had ({@code DENY} for a request refused before it was
     * judged), outcome {@code rate-limited} or {@code rate-limit-unavailable} and the
     * limit in {@code detail}. A refused request costs one durable record, not two, which is what a client flooding
     * past its limit mostly sends.
     */
    private RateCheck charge(RequestContext ctx, String method, Action action, CanonicalUri uri, String uriText,
            String verdict, List<String> rules, PolicySet policy, long start, int tokens) {
        if (action == null) {
            return RateCheck.UNLIMITED; // not a resource method: no limit names it
        }
        RateCheck rate;
        try (var stage = spans.start("ratelimit", method)) {
            rate = limiter.check(policy, ctx.identity(), ctx.sourceIp(), action, uri, tokens);
            stage.outcome(rate.allowed() ? "admitted" : "rejected");
        } catch (RateLimitUnavailableException e) {
            // A fail-closed limit whose shared store (Redis) cannot answer: refuse rather than guess.
            throw refused(ctx, method, action, uriText, verdict, rules, policy, start, "rate-limit-unavailable",
                    Reason.UNAVAILABLE, e.getMessage(), "Service unavailable: the rate limiter cannot check this request",
                    Map.of());
        }
        if (!rate.allowed()) {
            var data = new LinkedHashMap<String, Object>();
            data.put("retryAfterSeconds", rate.retryAfterSeconds());
            throw refused(ctx, method, action, uriText, verdict, rules, policy, start, "rate-limited", Reason.RATE_LIMITED,
                    "limit " + rate.limitId() + (tokens > 1 ? "; " + tokens + " tokens asked" : "")
                            + (rate.auditDetail() == null ? "" : "; " + rate.auditDetail()),
                    "Rate limit exceeded", data, rate);
        }
        return rate;
    }

    private static String verdict(Decision d) {
        return d.allowed() ? "ALLOW" : "DENY";
    }

    /** The policy's verdict on one URI, not yet recorded: the rate limit is charged first. */
    private Decision judge(RequestContext ctx, String method, Action action, CanonicalUri uri, PolicySet policy) {
        try (var stage = spans.start("policy", method)) {
            Decision decision = policy.decide(ctx.identity(), action, uri, ctx.facts());
            stage.outcome(decision.allowed() ? "allow" : "deny");
            return decision;
        }
    }

    /**
     * A denial is the request's only record (its {@code DECISION}) and the same answer whether or not the URI
     * exists: the provider is never consulted.
     */
    private void refuseIfDenied(RequestContext ctx, String method, Action action, CanonicalUri uri, String rawUri,
            Decision decision, PolicySet policy, long start) {
        if (!decision.allowed()) {
            throw refused(ctx, method, action, uri.toString(), "DENY", decision.rules(), policy, start, "refused",
                    Reason.DENIED, null, "Permission denied", uriData(rawUri));
        }
    }

    /**
     * Records a refusal ({@link #record}) and returns it to be thrown: the refusal's one record says what was decided
     * and why ({@code outcome}, the code for {@code reason}, {@code detail}); the caller is told {@code message}.
     */
    private Refusal refused(RequestContext ctx, String method, Action action, String uri, String verdict, List<String> rules,
            PolicySet policy, long start, String outcome, Reason reason, String detail, String message,
            Map<String, Object> data) {
        return refused(ctx, method, action, uri, verdict, rules, policy, start, outcome, reason, detail, message, data, null);
    }

    private Refusal refused(RequestContext ctx, String method, Action action, String uri, String verdict, List<String> rules,
            PolicySet policy, long start, String outcome, Reason reason, String detail, String message,
            Map<String, Object> data, RateCheck rate) {
        metrics.finished(method, outcomeMetric(reason, outcome), System.nanoTime() - start);
        RecordedRefusal record = record(ctx, method, action, uri, verdict, rules, policy, outcome, ctx.code(reason), detail);
        return new Refusal(reason, message, data, rate, record);
    }

    private static String outcomeMetric(Reason reason, String outcome) {
        return switch (reason) {
            case DENIED -> "denied";
            case INVALID_URI -> "invalid-uri";
            default -> outcome;
        };
    }

    /**
     * A refusal's one record, a {@code DECISION}, through the {@link RefusalRecorder}: on its own while the subject is
     * under its attempt limit, committed before this returns; past it, counted into a summary that commits within the
     * merge window, which the answer must wait for ({@link Refusal#pending}).
     */
    private RecordedRefusal record(RequestContext ctx, String method, Action action, String uri, String verdict,
            List<String> rules, PolicySet policy, String outcome, Integer errorCode, String detail) {
        if (action != null) {
            metrics.decided(action, verdict);
        }
        try (var stage = spans.start("audit.decision", method)) {
            RecordedRefusal r = refusals.record(decisionEvent(ctx, method, action, uri, verdict, rules, policy, outcome,
                    errorCode, detail));
            if (!r.merged()) {
                r.await();
            }
            return r;
        } catch (AuditUnavailableException e) {
            throw auditUnavailable();
        }
    }

    private Refusal providerFailure(RequestContext ctx, Admitted admitted, String method, Action action, String uri,
            PolicySet policy, long start, RuntimeException e) {
        Refusal refusal;
        String outcome;
        if (e instanceof ProviderFailure f) {
            outcome = f.kind().outcome;
            var data = uriData(uri);
            if (f.kind() == ProviderFailure.Kind.TIMEOUT) {
                data.put("timeoutMs", f.timeoutMs());
                refusal = new Refusal(Reason.TIMED_OUT, "Request timed out", data);
            } else {
                String why = f.kind() == ProviderFailure.Kind.BULKHEAD_FULL
                        ? "too many requests in flight for this content source" : "the content source is failing";
                refusal = new Refusal(Reason.UNAVAILABLE, "Service unavailable: " + why, data);
            }
        } else if (e instanceof ResourceNotFoundException) {
            outcome = "not-found";
            refusal = new Refusal(Reason.NOT_FOUND, "Resource not found", uriData(uri));
        } else if (e instanceof InvalidCursorException) {
            outcome = "invalid-cursor";
            refusal = new Refusal(Reason.INVALID_ARGUMENT, "Invalid cursor", Map.of());
        } else if (e instanceof ContentTooLargeException big) {
            outcome = "too-large";
            var data = uriData(uri);
            data.put("maxBytes", big.maxBytes());
            if (big.size() >= 0) {
                data.put("size", big.size());
            }
            refusal = new Refusal(Reason.TOO_LARGE, "Resource too large: "
                    + (big.size() >= 0 ? big.size() + " bytes exceeds" : "it exceeds") + " this mount's limit of "
                    + big.maxBytes() + " bytes", data);
        } else {
            outcome = "error";
            LOG.errorf(e, "provider failure for request %s", ctx.requestId());
            refusal = new Refusal(Reason.INTERNAL, "Internal error", Map.of());
        }
        outcome(ctx, admitted.decision(), method, action, uri, policy, outcome, ctx.code(refusal.reason()), null, null, null,
                start, admitted.rate().auditDetail());
        return refusal;
    }

    /**
     * The first record of a request: what was decided, by which rules, under which revision; for a
     * request refused here (policy, invalid URI, rate limit) also why, and then it is the only record.
     * Queued, not awaited: see {@link #awaitCommit}.
     */
    private PendingCommit decision(RequestContext ctx, String method, Action action, String uri, String verdict,
            List<String> rules, PolicySet policy, String refusal, Integer errorCode, String detail) {
        if (action != null) {
            metrics.decided(action, verdict);
        }
        var event = decisionEvent(ctx, method, action, uri, verdict, rules, policy, refusal, errorCode, detail);
        try (var stage = spans.start("audit.decision", method)) {
            return audit.submit(event);
        } catch (AuditUnavailableException e) {
            throw auditUnavailable();
        }
    }

    private static AuditEvent decisionEvent(RequestContext ctx, String method, Action action, String uri, String verdict,
            List<String> rules, PolicySet policy, String refusal, Integer errorCode, String detail) {
        return AuditEvent.of(Kind.DECISION, ctx.requestId()).caller(ctx.caller()).protocol(ctx.protocolVersion())
                .method(method).action(action == null ? null : action.wireName()).uri(uri).decision(verdict).rules(rules)
                .policyRevision(policy.revision()).outcome(refusal).errorCode(errorCode).detail(detail).build();
    }

    /**
     * The second record: what happened and, for a read, exactly which bytes were disclosed. Committed
     * before this returns, and stored only if {@code decision} (when given: not yet known durable) was.
     */
    private void outcome(RequestContext ctx, PendingCommit decision, String method, Action action, String uri,
            PolicySet policy, String outcome, Integer errorCode, Long bytes, Integer items, String sha256, long start,
            String detail) {
        outcome(ctx, decision, method, action, uri, policy, outcome, errorCode, bytes, items, sha256, null, start, detail);
    }

    /** As above, with the cache scope the response declares ({@link #declared}). */
    private void outcome(RequestContext ctx, PendingCommit decision, String method, Action action, String uri,
            PolicySet policy, String outcome, Integer errorCode, Long bytes, Integer items, String sha256,
            String cacheScope, long start, String detail) {
        metrics.finished(method, outcome, System.nanoTime() - start);
        var event = AuditEvent.of(Kind.OUTCOME, ctx.requestId()).caller(ctx.caller()).protocol(ctx.protocolVersion())
                .method(method).action(action.wireName()).uri(uri).policyRevision(policy.revision()).outcome(outcome)
                .errorCode(errorCode).bytes(bytes).items(items).contentSha256(sha256).cacheScope(cacheScope)
                .latencyMicros((System.nanoTime() - start) / 1000).detail(detail).build();
        try (var stage = spans.start("audit.outcome", method)) {
            (decision == null ? audit.submit(event) : audit.submitAfter(decision, event)).await();
        } catch (AuditUnavailableException e) {
            throw auditUnavailable();
        }
    }

    /** Waits for a queued record; the request fails closed (-32005) if it is not committed. */
    private static void awaitCommit(PendingCommit record) {
        try {
            record.await();
        } catch (AuditUnavailableException e) {
            throw auditUnavailable();
        }
    }

    private static Refusal auditUnavailable() {
        return new Refusal(Reason.UNAVAILABLE, "Service unavailable: the audit log cannot record this request", Map.of());
    }

    /** The scope a response declares on this revision (null where the revision has no cache scope). */
    private static String declared(RequestContext ctx, CacheHint cache) {
        return ctx.revision().declaresCacheScope() && cache != null ? cache.scope() : null;
    }

    private static String joinDetails(String a, String b) {
        return a == null ? b : b == null ? a : a + "; " + b;
    }

    private static Map<String, Object> uriData(String uri) {
        var data = new LinkedHashMap<String, Object>();
        data.put("uri", uri);
        return data;
    }

    static String sha256(byte[] bytes) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
