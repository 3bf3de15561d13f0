package dev.quaestor.evidence;

/**
 * The hash of a complete subtree: level 0 is leaf {@code index}; level {@code l} covers leaves
 * {@code index * 2^l} to {@code (index + 1) * 2^l - 1}. A store answers from what it keeps (stored nodes,
 * leaf hashes) and computes the rest; it throws if it can do neither.
 */
@FunctionalInterface
public interface NodeSource {

    byte[] node(int level, long index);
}
