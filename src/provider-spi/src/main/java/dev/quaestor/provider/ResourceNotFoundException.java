package dev.quaestor.provider;

/** The URI lies within a mount but names nothing the provider serves. */
public class ResourceNotFoundException extends RuntimeException {
    public ResourceNotFoundException(String uri) {
        super("resource not found: " + uri, null, false, false);
    }
}
