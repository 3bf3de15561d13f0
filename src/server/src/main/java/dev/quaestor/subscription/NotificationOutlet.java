package dev.quaestor.subscription;

import java.util.Map;
import java.util.Set;

/**
 * One open server-to-client stream on this replica, as the notifier sees it. The transport implements
 * it; the notifier never knows it is SSE over HTTP. Two kinds exist: a 2025 session's GET stream, which
 * delivers the subscriptions stored for its session ({@link #sessionId}), and a 2026-07-28
 * {@code subscriptions/listen} stream, which carries its own granted filter ({@link #resourceSubscriptions}).
 */
public interface NotificationOutlet {

    /** Unique among this replica's open streams; a new stream with the key of an open one replaces it. */
    String key();

    /** The MCP session whose stored subscriptions this stream delivers, or null for a stream without a session. */
    String sessionId();

    /**
     * For a stream without a session: the canonical URIs whose changes it was granted. Null for a session's
     * stream, whose subscriptions are looked up in the {@link SubscriptionStore}.
     */
    Set<String> resourceSubscriptions();

    /** Whether {@code notifications/resources/list_changed} goes on this stream at all (policy still decides each). */
    boolean listChanged();

    /** Who holds the stream, how it is audited, and how its notifications are tagged. */
    StreamHolder holder();

    /**
     * {@code _meta} to put in every notification on this stream (the 2026-07-28 subscription id), or an
     * empty map.
     */
    Map<String, Object> meta();

    /**
     * Queues one JSON-RPC notification (a complete JSON text); false if the stream is gone. Once queued, should the
     * stream end before the notification is handed to its connection, {@code ifNotWritten} runs (once).
     */
    boolean send(String jsonRpcNotification, Runnable ifNotWritten);
}
