package dev.quaestor.mcp.stateless;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.quaestor.audit.record.RequestIds;
import dev.quaestor.mcp.limits.CapRefusals;
import dev.quaestor.mcp.limits.SubjectCapReached;
import dev.quaestor.mcp.wire.ErrorCodes;
import dev.quaestor.mcp.wire.JsonRpc;
import dev.quaestor.mcp.wire.MalformedParams;
import dev.quaestor.mcp.wire.McpError;
import dev.quaestor.mcp.wire.StatelessResults;
import dev.quaestor.mcp.wire.WireErrors;
import dev.quaestor.pipeline.ListenGrant;
import dev.quaestor.pipeline.Refusal;
import dev.quaestor.pipeline.RequestContext;
import dev.quaestor.pipeline.ResourcePipeline;
import dev.quaestor.subscription.StreamHolder;
import dev.quaestor.subscription.Subscriber;
import dev.quaestor.subscription.SubscriptionConfig;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.ws.rs.sse.Sse;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import org.jboss.logging.Logger;

import static dev.quaestor.mcp.wire.Generation.STATELESS;

/**
 * {@code subscriptions/listen} (2026-07-28), which replaces {@code resources/subscribe},
 * {@code resources/unsubscribe} and the GET stream for stateless clients. The request's filter is read
 * ({@code notifications}: {@code resourcesListChanged}, {@code resourceSubscriptions}; tools and prompts
 * are never granted, this server has none), judged by the request path ({@link ResourcePipeline#listen}:
 * each URI and the list-change filter with action {@code subscribe}, every decision audited), and
 * the stream opened: its first event acknowledges exactly what was granted
 * ({@code notifications/subscriptions/acknowledged}); a refused URI is simply absent from it, whether or not
 * it exists. Every notification on the stream carries the subscription id (the listen request's id, with its
 * JSON type) in {@code _meta}; each is judged again under the policy in force when it is sent and audited
 * before it is sent ({@link dev.quaestor.subscription.ChangeNotifier}). A subject holds at most
 * {@code quaestor.limits.per-subject.listens} streams on a replica: past it the listen is refused (429 / -32004,
 * on record) before anything is judged.
 */
@ApplicationScoped
public class ListenRequests {

    private static final Logger LOG = Logger.getLogger(ListenRequests.class);

    private final ResourcePipeline pipeline;
    private final ListenStreams streams;
    private final ObjectMapper json;
    private final int maxUris;
    private final CapRefusals refusals;
    private final StatelessRpc rpc;

    ListenRequests(ResourcePipeline pipeline, ListenStreams streams, ObjectMapper json, SubscriptionConfig config,
            CapRefusals refusals, StatelessRpc rpc) {
        this.refusals = refusals;
        this.rpc = rpc;
        this.pipeline = pipeline;
        this.streams = streams;
        this.json = json;
        this.maxUris = config.maxListenUris();
    }

    /**
     * The stream of a listen request, or the answer refusing it (answered as ordinary JSON, before any stream opens):
     * the request is checked as every 2026-07-28 request is ({@link StatelessRpc#check}) first. {@code tokenExpiry}:
     * the stream ends gracefully then.
     */
    public Listen open(JsonNode root, StatelessRpc.Inbound in, Instant tokenExpiry, Sse sse) {
        Check checked = rpc.check(root, in);
        if (checked instanceof Check.Answered refused) {
            return new Listen.Refused(refused.answer());
        }
        return open((Check.Passed) checked, tokenExpiry, sse);
    }

    private Listen open(Check.Passed c, Instant tokenExpiry, Sse sse) {
        RequestContext ctx = c.ctx();
        String rid = ctx.requestId();
        if (!streams.hasRoom()) {
            return new Listen.Refused(WireErrors.error(STATELESS, c.id(), ErrorCodes.UNAVAILABLE,
                    "Service unavailable: this replica holds as many listen streams as it may", Map.of(), rid, 503,
                    Map.of("Retry-After", "5")));
        }
        String subject = ctx.identity().subject();
        try {
            streams.reserve(subject);
        } catch (SubjectCapReached e) {
            return new Listen.Refused(refusals.answer(STATELESS, c.id(), e.cap, ctx.caller(), "subscriptions/listen", e.detail(), rid));
        }
        boolean opened = false;
        try {
            Listen listen = open(c, ctx, subject, tokenExpiry, sse);
            opened = listen instanceof Listen.Opened;
            return listen;
        } finally {
            if (!opened) {
                streams.unreserve(subject);
            }
        }
    }

    private Listen open(Check.Passed c, RequestContext ctx, String subject, Instant tokenExpiry, Sse sse) {
        String rid = ctx.requestId();
        ListenGrant grant;
        try {
            JsonNode filter = c.params().get("notifications");
            if (filter == null || !filter.isObject()) {
                throw new MalformedParams("params.notifications (a subscription filter) is required");
            }
            grant = pipeline.listen(ctx, uris(filter), flag(filter, "resourcesListChanged"), maxUris).result();
        } catch (Refusal r) {
            return new Listen.Refused(WireErrors.refusal(STATELESS, c.id(), r, ctx.codes(), rid));
        } catch (MalformedParams e) {
            // Recorded and paid for, as params no resource method can read are.
            return new Listen.Refused(e.refusal().refuse(STATELESS, pipeline, ctx, c.id(), new JsonRpc.Named(c.method(), null)));
        } catch (McpError e) {
            return new Listen.Refused(WireErrors.error(STATELESS, c.id(), e, rid));
        } catch (RuntimeException e) {
            LOG.errorf(e, "internal error in request %s", rid);
            return new Listen.Refused(WireErrors.error(STATELESS, c.id(), ErrorCodes.INTERNAL_ERROR, "Internal error", rid, 200));
        }
        Map<String, Object> meta = Map.of(StatelessResults.SUBSCRIPTION_ID, c.id());
        var holder = new StreamHolder(new Subscriber(ctx.identity(), ctx.sourceIp()), ctx.caller(), rid,
                ctx.protocolVersion());
        var outlet = new ListenOutlet("listen:" + rid + ":" + RequestIds.next(), new LinkedHashSet<>(grant.resourceUris()),
                grant.listChanged(), holder, meta, acknowledgement(c.id(), grant), sse);
        return new Listen.Opened(streams.open(outlet, subject, tokenExpiry, finalResult(c.id())));
    }

    /** {@code notifications/subscriptions/acknowledged}: only what was granted. */
    private String acknowledgement(JsonNode id, ListenGrant grant) {
        var honoured = new LinkedHashMap<String, Object>();
        if (grant.listChanged()) {
            honoured.put("resourcesListChanged", true);
        }
        if (!grant.resourceUris().isEmpty()) {
            honoured.put("resourceSubscriptions", grant.resourceUris());
        }
        var params = new LinkedHashMap<String, Object>();
        params.put("_meta", Map.of(StatelessResults.SUBSCRIPTION_ID, id));
        params.put("notifications", honoured);
        var message = new LinkedHashMap<String, Object>();
        message.put("jsonrpc", "2.0");
        message.put("method", "notifications/subscriptions/acknowledged");
        message.put("params", params);
        return write(message);
    }

    /** The listen request's result: sent when the server ends the stream (token expiry, shutdown). */
    private String finalResult(JsonNode id) {
        ObjectNode result = json.createObjectNode();
        result.put("resultType", "complete");
        ObjectNode meta = StatelessResults.meta(json);
        meta.set(StatelessResults.SUBSCRIPTION_ID, id);
        result.set("_meta", meta);
        return write(new JsonRpc.Result(id, result));
    }

    private static List<String> uris(JsonNode filter) {
        JsonNode list = filter.get("resourceSubscriptions");
        var out = new ArrayList<String>();
        if (list == null || list.isNull()) {
            return out;
        }
        if (!list.isArray()) {
            throw new MalformedParams("notifications.resourceSubscriptions must be an array of URIs");
        }
        for (JsonNode u : list) {
            if (!u.isTextual()) {
                throw new MalformedParams("notifications.resourceSubscriptions must be an array of URIs");
            }
            out.add(u.asText());
        }
        return out;
    }

    private static boolean flag(JsonNode filter, String name) {
        JsonNode v = filter.get(name);
        if (v == null || v.isNull()) {
            return false;
        }
        if (!v.isBoolean()) {
            throw new MalformedParams("notifications." + name + " must be a boolean");
        }
        return v.asBoolean();
    }

    private String write(Object o) {
        try {
            return json.writeValueAsString(o);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }
}
