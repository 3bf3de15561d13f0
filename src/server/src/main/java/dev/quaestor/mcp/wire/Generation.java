package dev.quaestor.mcp.wire;

/**
 * A protocol generation: how the revisions of one generation carry state between requests, and so how their
 * messages are read and their errors written. Each revision belongs to one ({@link ProtocolRevision#generation()}).
 */
public enum Generation {
    /** The 2025 revisions: {@code initialize} opens a session that every later request names. */
    SESSION,
    /** 2026-07-28: every request carries its version and the client's capabilities; no session. */
    STATELESS
}
