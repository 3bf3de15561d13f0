package dev.quaestor.pipeline;

import dev.quaestor.subscription.Subscriber;
import dev.quaestor.subscription.SubscriptionStore;

/** The shared subscription store as {@code resources/subscribe} and {@code resources/unsubscribe} use it. */
interface Subscriptions {

    /** Throws {@link dev.quaestor.subscription.SubscriptionLimitException} past the session's limit. */
    void add(String sessionId, String uri, Subscriber who);

    /** False if the session held no such subscription. */
    boolean remove(String sessionId, String uri);

    static Subscriptions of(SubscriptionStore store) {
        return new Subscriptions() {
            @Override
            public void add(String sessionId, String uri, Subscriber who) {
                store.add(sessionId, uri, who);
            }

            @Override
            public boolean remove(String sessionId, String uri) {
                return store.remove(sessionId, uri);
            }
        };
    }
}
