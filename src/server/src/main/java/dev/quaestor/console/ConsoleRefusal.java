package dev.quaestor.console;

/** A console request refused after it was recorded: shown as a page with its status and the record's request id. */
public class ConsoleRefusal extends RuntimeException {

    private final int status;
    private final String requestId;

    public ConsoleRefusal(int status, String message, String requestId) {
        super(message, null, false, false);
        this.status = status;
        this.requestId = requestId;
    }

    public int status() {
        return status;
    }

    public String requestId() {
        return requestId;
    }
}
