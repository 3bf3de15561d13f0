package dev.quaestor.subscription;

/** A session already holds the most subscriptions it may. */
public class SubscriptionLimitException extends RuntimeException {

    private final int max;

    public SubscriptionLimitException(int max) {
        super("too many subscriptions for one MCP session (at most " + max + ")");
        this.max = max;
    }

    public int max() {
        return max;
    }
}
