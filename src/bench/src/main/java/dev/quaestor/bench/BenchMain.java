package dev.quaestor.bench;

/**
 * How the benchmark mains end: explicitly, with 0 or 1. The local token issuer's HTTP server
 * thread ({@link dev.quaestor.support.TestIssuer}) is not a daemon and would keep the JVM alive.
 */
public final class BenchMain {

    /** A benchmark's body. */
    @FunctionalInterface
    public interface Body {
        void run(String[] args) throws Exception;
    }

    private BenchMain() {
    }

    public static void runAndExit(Body body, String[] args) {
        try {
            body.run(args);
            System.exit(0);
        } catch (Exception e) {
            e.printStackTrace();
            System.exit(1);
        }
    }
}
