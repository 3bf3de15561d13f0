package dev.quaestor.provider;

/** A listing cursor that this server did not issue or can no longer interpret. */
public class InvalidCursorException extends RuntimeException {
    public InvalidCursorException() {
        super("invalid cursor", null, false, false);
    }
}
