package dev.quaestor.mcp.wire;

/**
 * Params of a method this server serves that cannot be read (no {@code uri}, a cursor that is not a string, a completion
 * without its argument): thrown where they are read, and refused by the generation as a request refused at the door
 * ({@link Malformed#invalidParams}), so that it is recorded and paid for, and its answer's request id names that record.
 */
public final class MalformedParams extends RuntimeException {

    public MalformedParams(String message) {
        super(message, null, false, false);
    }

    /** The refusal: -32602 with this message, answered with HTTP 200 as every params error is. */
    public Malformed refusal() {
        return Malformed.invalidParams(getMessage(), 200);
    }
}
