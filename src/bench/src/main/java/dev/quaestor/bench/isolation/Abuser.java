package dev.quaestor.bench.isolation;

/** One kind of abuse, run beside the legitimate client for one phase. */
interface Abuser {

    /** The phase's name in the table. */
    String name();

    /** What it does, in a few words (printed when the phase starts). */
    String description();

    /** Work before the phase that is not itself the abuse (e.g. the sessions the streams are opened on). */
    default void prepare(Stage stage) throws Exception {
    }

    /** Starts the abuse; returns at once. */
    void start(Stage stage) throws Exception;

    /** Ends the abuse (closing what it holds) and says what the server made of it. */
    String stop() throws Exception;
}
