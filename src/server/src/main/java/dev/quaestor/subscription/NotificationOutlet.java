package dev.quaestor.subscription;

/**
 * One open server-to-client stream of a session on this replica, as the notifier sees it. The
 * transport implements it; the notifier never knows it is SSE over HTTP.
 */
public interface NotificationOutlet {

    String sessionId();

    /** Who holds the stream (from the token that opened it), for list_changed. */
    Subscriber subscriber();

    /** Queues one JSON-RPC notification (a complete JSON text); false if the stream is gone. */
    boolean send(String jsonRpcNotification);
}
