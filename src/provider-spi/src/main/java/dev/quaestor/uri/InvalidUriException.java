package dev.quaestor.uri;

/** A URI that has no safe canonical form. The message names the problem, never the content. */
public class InvalidUriException extends RuntimeException {
    public InvalidUriException(String message) {
        super(message, null, false, false);
    }
}
