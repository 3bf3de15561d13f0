package dev.quaestor.pipeline;

import dev.quaestor.subscription.Subscriber;
import dev.quaestor.subscription.SubscriptionStore;

/** The shared subscription store as {@code resources/subscribe} and {@code resources/unsubscribe} use it. */
interface Subscriptions {

    /**
     * True if this call stored the subscription, false if the session held it already; throws
     * {@link dev.quaestor.subscription.SubscriptionLimitException} past the session's limit.
     */
    boolean add(String sessionId, String uri, Subscriber who);

    /** False if the session held no such subscription. */
    boolean remove(String sessionId, String uri);

    static Subscriptions of(SubscriptionStore store) {
        return new Subscriptions() {
            @Override
            public boolean add(String sessionId, String uri, Subscriber who) {
                return store.add(sessionId, uri, who);
            }

            @Override
            public boolean remove(String sessionId, String uri) {
                return store.remove(sessionId, uri);
            }
        };
    }
}
