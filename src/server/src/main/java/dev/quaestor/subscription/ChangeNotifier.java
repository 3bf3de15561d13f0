package dev.quaestor.subscription;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.quaestor.audit.record.AuditEvent;
import dev.quaestor.audit.AuditLog;
import dev.quaestor.audit.record.AuditUnavailableException;
import dev.quaestor.audit.write.PendingCommit;
import dev.quaestor.policy.Action;
import dev.quaestor.policy.PolicySet;
import dev.quaestor.policy.PolicyStore;
import dev.quaestor.provider.ChangeRegistration;
import dev.quaestor.provider.ResourceChangeListener;
import dev.quaestor.provider.mounts.MountTable;
import dev.quaestor.uri.CanonicalUri;
import dev.quaestor.uri.InvalidUriException;
import dev.quaestor.uri.UriCanonicalizer;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.jboss.logging.Logger;

/**
 * Turns the providers' change events into notifications on this replica's open streams.
 *
 * <p>Events are collected for one {@code quaestor.subscriptions.coalesce-window} and then sent
 * together, so a burst of writes to one file gives each subscribed session at most one
 * {@code notifications/resources/updated} for it per window. At send time every notification is
 * judged again under the policy active at that moment: {@code updated} only if the holder of the
 * stream that carries it (and, for a stored subscription, the subscriber kept with it too) may still
 * {@code read} and {@code subscribe} to the URI, {@code list_changed}
 * only to streams whose holder may {@code list} one of the entries that came or went (or, for a change a provider
 * could not name, every URI of its mount: see {@link ListChangeJudge}), recorded under that entry.
 * A 2025 session's subscriptions are looked up in the shared database, so a subscription made through
 * any replica is honoured by the replica that holds the stream; a 2026-07-28 listen stream carries its
 * own granted URIs. Providers watch only while this replica has a stream open.
 *
 * <p>Every notification is audited: a {@code NOTIFICATION} record (the holder, the URI, the deciding
 * rules and the policy revision, under the id of the request that opened the stream) is committed
 * before the notification is written. A notification whose record cannot be committed is not sent
 * (counted as {@code unrecorded}).
 */
@ApplicationScoped
public class ChangeNotifier {

    private static final Logger LOG = Logger.getLogger(ChangeNotifier.class);

    private final MountTable mounts;
    private final PolicyStore policies;
    private final SubscriptionStore store;
    private final NotificationMetrics metrics;
    private final ObjectMapper json;
    private final AuditLog audit;
    private final int maxPending;
    private final Map<String, NotificationOutlet> outlets = new ConcurrentHashMap<>();
    private final Set<String> pendingUpdated = ConcurrentHashMap.newKeySet();
    private final PendingListChanges pendingLists;
    private final List<ChangeRegistration> registrations = new ArrayList<>();
    private final ScheduledExecutorService scheduler;

    ChangeNotifier(MountTable mounts, PolicyStore policies, SubscriptionStore store, NotificationMetrics metrics,
            ObjectMapper json, AuditLog audit, SubscriptionConfig config, MeterRegistry registry) {
        this.audit = audit;
        this.mounts = mounts;
        this.policies = policies;
        this.store = store;
        this.metrics = metrics;
        this.json = json;
        this.maxPending = config.maxPendingChanges();
        this.pendingLists = new PendingListChanges(maxPending);
        this.scheduler = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "quaestor-notify");
            t.setDaemon(true);
            return t;
        });
        long window = Math.max(10, config.coalesceWindow().toMillis());
        scheduler.scheduleWithFixedDelay(this::flushSafely, window, window, TimeUnit.MILLISECONDS);
        Gauge.builder("quaestor.notification.streams", outlets, Map::size)
                .description("Server-to-client streams open on this replica").register(registry);
    }

    /** Makes sure the providers report changes (a filesystem watch registers every directory). */
    private void startListening() {
        if (!registrations.isEmpty()) {
            return;
        }
        for (var m : mounts.all()) {
            if (!m.provider().emitsChanges()) {
                continue;
            }
            CanonicalUri prefix = m.mount().prefix();
            try {
                registrations.add(m.provider().addChangeListener(new ResourceChangeListener() {
                    @Override
                    public void updated(CanonicalUri uri) {
                        if (pendingUpdated.size() < maxPending) {
                            pendingUpdated.add(uri.toString());
                        } else if (!pendingUpdated.contains(uri.toString())) {
                            metrics.count("updated", "dropped");
                        }
                    }

                    @Override
                    public void listChanged(CanonicalUri entry) {
                        if (!pendingLists.entry(prefix, entry)) {
                            metrics.count("list_changed", "dropped");
                        }
                    }

                    @Override
                    public void listChanged() {
                        pendingLists.wholeMount(prefix);
                    }
                }));
            } catch (RuntimeException e) {
                LOG.warnf(e, "mount %s: cannot watch for changes; its subscribers get no notifications", m.mount().name());
            }
        }
    }

    private synchronized void stopListeningIfIdle() {
        if (!outlets.isEmpty()) {
            return;
        }
        registrations.forEach(ChangeRegistration::close);
        registrations.clear();
        pendingUpdated.clear();
        pendingLists.clear();
    }

    /**
     * Starts delivering to this stream and returns the stream with the same key it replaces on this
     * replica, if any. The first stream starts the providers' watchers, which may walk a directory
     * tree: call it from a worker thread, not an I/O thread.
     */
    public synchronized NotificationOutlet attach(NotificationOutlet outlet) {
        startListening();
        return outlets.put(outlet.key(), outlet);
    }

    /** Stops delivering to this stream (if it is still the one under its key). */
    public void detach(NotificationOutlet outlet) {
        if (outlets.remove(outlet.key(), outlet) && outlets.isEmpty()) {
            try {
                scheduler.execute(this::stopListeningIfIdle);
            } catch (RejectedExecutionException shuttingDown) {
                // Streams are closed at shutdown after this notifier: its close() stops the watchers itself.
            }
        }
    }

    private void flushSafely() {
        try {
            flush();
        } catch (RuntimeException e) {
            LOG.warnf("notifications for one window were not sent: %s", e.toString());
            metrics.count("updated", "failed");
        }
    }

    /** One notification judged deliverable: its stream, its text, and its audit record once queued. */
    private static final class Delivery {
        final NotificationOutlet outlet;
        final String type;
        final String message;
        final AuditEvent record;
        PendingCommit commit;

        Delivery(NotificationOutlet outlet, String type, String message, AuditEvent record) {
            this.outlet = outlet;
            this.type = type;
            this.message = message;
            this.record = record;
        }
    }

    /**
     * Sends what changed since the last flush: each notification judged under the policy active now,
     * its {@code NOTIFICATION} record committed, and only then written to its stream. No record, no
     * notification.
     */
    void flush() {
        List<String> uris = drain(pendingUpdated);
        PendingListChanges.Window lists = pendingLists.drain();
        if (outlets.isEmpty() || (uris.isEmpty() && lists.isEmpty())) {
            return;
        }
        PolicySet policy = policies.current();
        var deliveries = new ArrayList<Delivery>();
        if (!uris.isEmpty()) {
            updatesForSessions(uris, policy, deliveries);
            updatesForListeners(uris, policy, deliveries);
        }
        if (!lists.isEmpty()) {
            for (NotificationOutlet outlet : outlets.values()) {
                if (!outlet.listChanged()) {
                    continue;
                }
                var visible = ListChangeJudge.firstVisible(policy, outlet.holder().subscriber(), lists);
                if (visible != null) {
                    String method = "notifications/resources/list_changed";
                    deliveries.add(new Delivery(outlet, "list_changed", notification(method, null, outlet.meta()),
                            record(outlet, method, Action.LIST, visible.uri().toString(), visible.rules(), policy)));
                } else {
                    metrics.count("list_changed", "suppressed");
                }
            }
        }
        // Queue every record first, so that one group commit covers the window; then send each once its record is in.
        for (Delivery d : deliveries) {
            try {
                d.commit = audit.submit(d.record);
            } catch (AuditUnavailableException e) {
                d.commit = null;
            }
        }
        for (Delivery d : deliveries) {
            boolean recorded = false;
            if (d.commit != null) {
                try {
                    d.commit.await();
                    recorded = true;
                } catch (AuditUnavailableException e) {
                    recorded = false;
                }
            }
            if (recorded) {
                AuditEvent record = d.record;
                boolean sent = d.outlet.send(d.message, () -> notSent(record, "its stream ended before it was written"));
                metrics.count(d.type, sent ? "sent" : "failed");
                if (!sent) {
                    notSent(record, "its stream had closed");
                }
            } else {
                metrics.count(d.type, "unrecorded");
            }
        }
    }

    /**
     * A notification whose record said {@code ok} but whose stream closed before it could be written, or ended with it
     * still waiting, gets a second {@code NOTIFICATION}, {@code aborted}: no record claims a notification that was not
     * sent. Queued, not awaited; if it cannot be queued, that is logged.
     */
    private void notSent(AuditEvent sent, String why) {
        var event = AuditEvent.of(AuditEvent.Kind.NOTIFICATION, sent.requestId()).caller(sent.caller())
                .protocol(sent.protocol()).method(sent.method()).action(sent.action()).uri(sent.uri())
                .decision(sent.decision()).rules(sent.rules()).policyRevision(sent.policyRevision()).outcome("aborted")
                .detail("the notification was not sent: " + why).build();
        try {
            audit.submit(event);
        } catch (AuditUnavailableException e) {
            LOG.errorf("request %s: the record of a notification not sent could not be queued: %s", sent.requestId(),
                    e.toString());
        }
    }

    /**
     * Session streams: the subscriptions stored for their sessions, judged for the stream's holder and for the
     * subscriber stored with each.
     */
    private void updatesForSessions(List<String> uris, PolicySet policy, List<Delivery> out) {
        var bySession = new java.util.HashMap<String, NotificationOutlet>();
        for (NotificationOutlet o : outlets.values()) {
            if (o.sessionId() != null) {
                bySession.put(o.sessionId(), o);
            }
        }
        if (bySession.isEmpty()) {
            return;
        }
        List<SubscriptionStore.Stored> found;
        try {
            found = store.find(bySession.keySet(), uris);
        } catch (RuntimeException e) {
            // The subscription lookup failed (database down?): these changes are lost for session streams.
            LOG.warnf("stored subscriptions could not be read; their notifications for one window are lost: %s", e.toString());
            metrics.count("updated", "failed");
            return;
        }
        for (var s : found) {
            NotificationOutlet outlet = bySession.get(s.sessionId());
            CanonicalUri uri = canonical(s.uri());
            if (outlet != null && uri != null) {
                judgeUpdate(outlet, s.subscriber(), uri, policy, out);
            }
        }
    }

    /** Whether this identity, from its address, may still read the URI and still be subscribed to it. */
    private static boolean stillAllowed(Subscriber who, CanonicalUri uri, PolicySet policy) {
        var facts = who.factsNow();
        return policy.decide(who.identity(), Action.READ, uri, facts).allowed()
                && policy.decide(who.identity(), Action.SUBSCRIBE, uri, facts).allowed();
    }

    /** Streams without a session: their own granted URIs, judged for the holder of the stream. */
    private void updatesForListeners(List<String> uris, PolicySet policy, List<Delivery> out) {
        for (NotificationOutlet outlet : outlets.values()) {
            Set<String> wanted = outlet.resourceSubscriptions();
            if (wanted == null || wanted.isEmpty()) {
                continue;
            }
            for (String u : uris) {
                CanonicalUri uri = wanted.contains(u) ? canonical(u) : null;
                if (uri != null) {
                    judgeUpdate(outlet, outlet.holder().subscriber(), uri, policy, out);
                }
            }
        }
    }

    /**
     * Judges one {@code updated} for the holder of the stream that would carry it (its identity and address now,
     * from the request that opened the stream) and, for a stored subscription, also for the subscriber kept with
     * it: both must still be allowed to read the URI and to be subscribed to it. A session's stream may be opened
     * with a later token than the subscribe's, or from another address; a role, group or network lost since then
     * stops the notifications at the next change.
     */
    private void judgeUpdate(NotificationOutlet outlet, Subscriber stored, CanonicalUri uri, PolicySet policy,
            List<Delivery> out) {
        Subscriber holder = outlet.holder().subscriber();
        var decision = policy.decide(holder.identity(), Action.READ, uri, holder.factsNow());
        if (decision.allowed() && policy.decide(holder.identity(), Action.SUBSCRIBE, uri, holder.factsNow()).allowed()
                && (stored == holder || stillAllowed(stored, uri, policy))) {
            String method = "notifications/resources/updated";
            var params = new LinkedHashMap<String, Object>();
            params.put("uri", uri.toString());
            out.add(new Delivery(outlet, "updated", notification(method, params, outlet.meta()),
                    record(outlet, method, Action.READ, uri.toString(), decision.rules(), policy)));
        } else {
            metrics.count("updated", "suppressed");
        }
    }

    /** The notification's record: under the opening request's id, so a stream's notifications are found with it. */
    private static AuditEvent record(NotificationOutlet outlet, String method, Action action, String uri, List<String> rules,
            PolicySet policy) {
        StreamHolder h = outlet.holder();
        return AuditEvent.of(AuditEvent.Kind.NOTIFICATION, h.requestId()).caller(h.caller()).protocol(h.protocol())
                .method(method).action(action.wireName()).uri(uri).decision("ALLOW").rules(rules)
                .policyRevision(policy.revision()).outcome("ok").build();
    }

    private String notification(String method, Map<String, Object> params, Map<String, Object> meta) {
        var message = new LinkedHashMap<String, Object>();
        message.put("jsonrpc", "2.0");
        message.put("method", method);
        if (params != null || !meta.isEmpty()) {
            var p = new LinkedHashMap<String, Object>();
            if (!meta.isEmpty()) {
                p.put("_meta", meta);
            }
            if (params != null) {
                p.putAll(params);
            }
            message.put("params", p);
        }
        try {
            return json.writeValueAsString(message);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    private static <T> List<T> drain(Set<T> pending) {
        var out = new ArrayList<T>();
        for (var it = pending.iterator(); it.hasNext();) {
            out.add(it.next());
            it.remove();
        }
        return out;
    }

    private static CanonicalUri canonical(String uri) {
        try {
            return UriCanonicalizer.canonicalize(uri);
        } catch (InvalidUriException e) {
            return null;
        }
    }

    @PreDestroy
    void close() {
        scheduler.shutdownNow();
        synchronized (this) {
            registrations.forEach(ChangeRegistration::close);
            registrations.clear();
        }
    }
}
