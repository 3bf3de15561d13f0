package dev.quaestor.pipeline;

/**
 * What to record when a served request's answer never reached its client (the connection closed, or writing it
 * failed, after its {@code OUTCOME} said {@code ok}): another {@code OUTCOME} of the same request, {@code aborted},
 * saying why. Called at most once, from any thread, without waiting for the record to commit.
 */
@FunctionalInterface
public interface Undelivered {

    void record(String why);

    /** Both, in order. */
    default Undelivered and(Undelivered next) {
        return why -> {
            record(why);
            next.record(why);
        };
    }
}
