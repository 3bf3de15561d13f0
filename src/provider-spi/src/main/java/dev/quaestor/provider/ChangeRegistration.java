package dev.quaestor.provider;

/** A listener's registration with a provider; closing it stops the events. Closing twice is harmless. */
@FunctionalInterface
public interface ChangeRegistration extends AutoCloseable {

    /** For providers that never emit events. */
    ChangeRegistration NONE = () -> {
    };

    @Override
    void close();
}
