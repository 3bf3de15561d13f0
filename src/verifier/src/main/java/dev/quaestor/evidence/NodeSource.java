package dev.quaestor.evidence;

/** The hash of the complete subtree of leaves {@code index * 2^level} to {@code (index + 1) * 2^level - 1}, or throws. */
@FunctionalInterface
public interface NodeSource {

    byte[] node(int level, long index);
}
