package dev.quaestor.mcp.session;

/** The session store (the database) could not answer; the request fails closed. */
public class SessionStoreException extends RuntimeException {

    public SessionStoreException(String what, Throwable cause) {
        super(what + " failed: " + cause.getMessage(), cause);
    }
}
