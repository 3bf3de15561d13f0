package dev.quaestor.subscription;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
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
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.jboss.logging.Logger;

/**
 * Turns the providers' change events into notifications on this replica's open streams.
 *
 * <p>Events are collected for one {@code quaestor.subscriptions.coalesce-window} and then sent
 * together, so a burst of writes to one file gives each subscribed session at most one
 * {@code notifications/resources/updated} for it per window. At send time every notification is
 * judged again under the policy active at that moment: {@code updated} only if the subscriber
 * (the identity stored with the subscription) may still {@code read} the URI, {@code list_changed}
 * only to streams whose holder may {@code list} something below a mount that changed.
 * Subscriptions are looked up in the shared database, so a subscription made through any replica
 * is honoured by the replica that holds the stream. Providers watch only while this replica has
 * a stream open.
 */
@ApplicationScoped
public class ChangeNotifier {

    private static final Logger LOG = Logger.getLogger(ChangeNotifier.class);

    private final MountTable mounts;
    private final PolicyStore policies;
    private final SubscriptionStore store;
    private final NotificationMetrics metrics;
    private final ObjectMapper json;
    private final int maxPending;
    private final Map<String, NotificationOutlet> outlets = new ConcurrentHashMap<>();
    private final Set<String> pendingUpdated = ConcurrentHashMap.newKeySet();
    private final Set<CanonicalUri> pendingLists = ConcurrentHashMap.newKeySet();
    private final List<ChangeRegistration> registrations = new ArrayList<>();
    private final ScheduledExecutorService scheduler;

    ChangeNotifier(MountTable mounts, PolicyStore policies, SubscriptionStore store, NotificationMetrics metrics,
            ObjectMapper json, SubscriptionConfig config, MeterRegistry registry) {
        this.mounts = mounts;
        this.policies = policies;
        this.store = store;
        this.metrics = metrics;
        this.json = json;
        this.maxPending = config.maxPendingChanges();
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
                    public void listChanged() {
                        pendingLists.add(prefix);
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
     * Starts delivering to this stream and returns the stream it replaces on this replica, if any.
     * The first stream starts the providers' watchers, which may walk a directory tree: call it
     * from a worker thread, not an I/O thread.
     */
    public synchronized NotificationOutlet attach(NotificationOutlet outlet) {
        startListening();
        return outlets.put(outlet.sessionId(), outlet);
    }

    /** Stops delivering to this stream (if it is still the session's). */
    public void detach(NotificationOutlet outlet) {
        if (outlets.remove(outlet.sessionId(), outlet) && outlets.isEmpty()) {
            scheduler.execute(this::stopListeningIfIdle);
        }
    }

    private void flushSafely() {
        try {
            flush();
        } catch (RuntimeException e) {
            // The subscription lookup failed (database down?): these changes are lost, later ones are not.
            LOG.warnf("notifications for one window were not sent: %s", e.toString());
            metrics.count("updated", "failed");
        }
    }

    /** Sends what changed since the last flush. */
    void flush() {
        List<String> uris = drain(pendingUpdated);
        List<CanonicalUri> lists = drain(pendingLists);
        if (outlets.isEmpty() || (uris.isEmpty() && lists.isEmpty())) {
            return;
        }
        PolicySet policy = policies.current();
        if (!uris.isEmpty()) {
            for (var s : store.find(outlets.keySet(), uris)) {
                NotificationOutlet outlet = outlets.get(s.sessionId());
                CanonicalUri uri = canonical(s.uri());
                if (outlet == null || uri == null) {
                    continue;
                }
                var who = s.subscriber();
                if (policy.decide(who.identity(), Action.READ, uri, who.factsNow()).allowed()) {
                    deliver(outlet, "updated", updated(s.uri()));
                } else {
                    metrics.count("updated", "suppressed");
                }
            }
        }
        if (!lists.isEmpty()) {
            String message = notification("notifications/resources/list_changed", null);
            for (NotificationOutlet outlet : outlets.values()) {
                var who = outlet.subscriber();
                boolean visible = false;
                for (CanonicalUri prefix : lists) {
                    if (policy.mayAllowBelow(who.identity(), Action.LIST, prefix, who.factsNow())) {
                        visible = true;
                        break;
                    }
                }
                if (visible) {
                    deliver(outlet, "list_changed", message);
                } else {
                    metrics.count("list_changed", "suppressed");
                }
            }
        }
    }

    private void deliver(NotificationOutlet outlet, String type, String message) {
        metrics.count(type, outlet.send(message) ? "sent" : "failed");
    }

    private String updated(String uri) {
        var params = new LinkedHashMap<String, Object>();
        params.put("uri", uri);
        return notification("notifications/resources/updated", params);
    }

    private String notification(String method, Map<String, Object> params) {
        var message = new LinkedHashMap<String, Object>();
        message.put("jsonrpc", "2.0");
        message.put("method", method);
        if (params != null) {
            message.put("params", params);
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
