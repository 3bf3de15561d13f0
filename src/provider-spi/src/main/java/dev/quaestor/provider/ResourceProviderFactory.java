package dev.quaestor.provider;

/**
 * A provider type, discovered as a CDI bean: any jar on the class path with a bean implementing
 * this interface adds a type that mounts can name in {@code quaestor.mounts.<name>.provider}.
 */
public interface ResourceProviderFactory {

    /** The name used in configuration, e.g. {@code filesystem}. */
    String type();

    /**
     * True when the provider reaches over the network (a database, a git remote): its mounts get
     * a circuit breaker unless configured otherwise.
     */
    default boolean remote() {
        return false;
    }

    /** Creates the provider for one mount; throws {@link IllegalArgumentException} on bad settings. */
    ResourceProvider create(Mount mount);
}
