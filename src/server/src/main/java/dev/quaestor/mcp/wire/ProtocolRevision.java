package dev.quaestor.mcp.wire;

import dev.quaestor.pipeline.ReasonCodes;
import dev.quaestor.pipeline.Protocol;
import java.util.List;
import java.util.Optional;

/**
 * An MCP revision this server speaks: its name, its generation, the error code it answers each refusal of the request path
 * with, and whether it allows JSON-RPC batches. Newest first: {@code 2026-07-28} (stateless, every request carries its
 * version in {@code _meta}) and the 2025 revisions (a session opened by {@code initialize}).
 *
 * <p>A request's revision is resolved once, where it enters the server (the router of its generation, or its session), and
 * carried from there; the request path sees it as its protocol-agnostic {@link Protocol} ({@link #pipeline()}).
 */
public final class ProtocolRevision {

    /** The key of {@code params._meta} where a stateless request claims the revision it speaks. */
    public static final String CLAIM = "io.modelcontextprotocol/protocolVersion";

    /** The codes of the error contract for the 2025 revisions. */
    private static final ReasonCodes CODES_2025 = reason -> switch (reason) {
        case DENIED -> ErrorCodes.PERMISSION_DENIED;
        case INVALID_URI, INVALID_ARGUMENT -> ErrorCodes.INVALID_PARAMS;
        case NOT_FOUND -> ErrorCodes.RESOURCE_NOT_FOUND;
        case TOO_MANY_SUBSCRIPTIONS -> ErrorCodes.INVALID_REQUEST;
        case RATE_LIMITED -> ErrorCodes.RATE_LIMITED;
        case TIMED_OUT -> ErrorCodes.REQUEST_TIMEOUT;
        case UNAVAILABLE -> ErrorCodes.UNAVAILABLE;
        case TOO_LARGE, INTERNAL -> ErrorCodes.INTERNAL_ERROR;
    };

    /** The codes of the error contract for 2026-07-28. */
    private static final ReasonCodes CODES_2026 = reason -> switch (reason) {
        case DENIED -> ErrorCodes.PERMISSION_DENIED;
        case INVALID_URI, INVALID_ARGUMENT, NOT_FOUND, TOO_MANY_SUBSCRIPTIONS -> ErrorCodes.INVALID_PARAMS;
        case RATE_LIMITED -> ErrorCodes.RATE_LIMITED;
        case TIMED_OUT -> ErrorCodes.REQUEST_TIMEOUT;
        case UNAVAILABLE -> ErrorCodes.UNAVAILABLE;
        case TOO_LARGE, INTERNAL -> ErrorCodes.INTERNAL_ERROR;
    };

    /** The stateless revision: canonical URIs only, results declare their cache scope. */
    public static final ProtocolRevision V2026_07_28 = new ProtocolRevision("2026-07-28", Generation.STATELESS, false);
    public static final ProtocolRevision V2025_11_25 = new ProtocolRevision("2025-11-25", Generation.SESSION, false);
    public static final ProtocolRevision V2025_06_18 = new ProtocolRevision("2025-06-18", Generation.SESSION, false);
    /** The only revision with JSON-RPC batches: 2025-06-18 removed them. */
    public static final ProtocolRevision V2025_03_26 = new ProtocolRevision("2025-03-26", Generation.SESSION, true);
    /**
     * A stateless request that names no revision this server speaks (its envelope could not be read, or claims
     * another version): refused under 2026-07-28 rules, and its records name no protocol. A 2025 message refused before
     * its session is looked up is recorded under it too, naming no protocol.
     */
    public static final ProtocolRevision UNVERSIONED = new ProtocolRevision(null, Generation.STATELESS, false);

    /** Every revision spoken, newest first. */
    public static final List<ProtocolRevision> SPOKEN = List.of(V2026_07_28, V2025_11_25, V2025_06_18, V2025_03_26);
    /** Their names: what {@code server/discover} and an UnsupportedProtocolVersion error list. */
    public static final List<String> SUPPORTED = SPOKEN.stream().map(ProtocolRevision::name).toList();

    private final String name;
    private final Generation generation;
    private final boolean batches;
    private final Protocol pipeline;

    private ProtocolRevision(String name, Generation generation, boolean batches) {
        this.name = name;
        this.generation = generation;
        this.batches = batches;
        boolean stateless = generation == Generation.STATELESS;
        this.pipeline = new Protocol(name, stateless ? CODES_2026 : CODES_2025, stateless, stateless);
    }

    /** The revision of this name, if this server speaks it. */
    public static Optional<ProtocolRevision> named(String name) {
        for (ProtocolRevision r : SPOKEN) { // asked on every request: a loop, not a stream
            if (r.name.equals(name)) {
                return Optional.of(r);
            }
        }
        return Optional.empty();
    }

    /** The 2025 revision of this name, if it is one. */
    public static Optional<ProtocolRevision> session(String name) {
        return named(name).filter(r -> r.generation == Generation.SESSION);
    }

    /** {@code initialize}: the client's version if it is one of ours that has sessions, else our latest such one. */
    public static ProtocolRevision negotiate(String requested) {
        return session(requested).orElse(V2025_11_25);
    }

    /** The name recorded and sent ({@code 2025-11-25}, {@code 2026-07-28}); null for {@link #UNVERSIONED}. */
    public String name() {
        return name;
    }

    public Generation generation() {
        return generation;
    }

    public boolean stateless() {
        return generation == Generation.STATELESS;
    }

    /** Whether a request may be a JSON-RPC batch. */
    public boolean allowsBatches() {
        return batches;
    }

    /** The error code this revision answers each refusal of the request path with. */
    public ReasonCodes codes() {
        return pipeline.codes();
    }

    /** What the request path knows of this revision. */
    public Protocol pipeline() {
        return pipeline;
    }

    @Override
    public String toString() {
        return name == null ? "unversioned" : name;
    }
}
