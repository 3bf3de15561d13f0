package dev.quaestor.policy;

import java.util.function.Function;
import java.util.function.Supplier;
import org.yaml.snakeyaml.nodes.Node;

/**
 * The parts of one element of a policy file (a rule, a limit, a test, a time window), each read on its own: a part in
 * error is reported (by the reader) and the next is read, so that an element with several mistakes has each of them
 * reported at once; {@link #done} then abandons the element if any part was in error or missing.
 */
final class Parts {
    private boolean failed;

    <T> T read(Supplier<T> part) {
        try {
            return part.get();
        } catch (YamlReader.Abandon e) {
            failed = true;
            return null;
        }
    }

    /** The part read from its node; null, and nothing read, for a key not given (reported where it is required). */
    <T> T read(Node node, Function<Node, T> part) {
        return node == null ? null : read(() -> part.apply(node));
    }

    /** Counts a check made elsewhere (required keys present, say) that has reported its own errors. */
    void check(boolean passed) {
        failed |= !passed;
    }

    void done() {
        if (failed) {
            throw new YamlReader.Abandon();
        }
    }
}
