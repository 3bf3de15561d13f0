package dev.quaestor.pipeline;

import dev.quaestor.mcp.schema.Schema;

/**
 * What {@code resources/read} produced: either a complete result, already audited, or content
 * still to be streamed ({@link StreamedRead}), whose outcome is audited as it is written.
 */
public sealed interface ReadResult permits ReadResult.Complete, StreamedRead {

    /** Small content: read whole, its outcome committed; the result can be sent as it is. */
    record Complete(Schema.ReadResourceResult result) implements ReadResult {
    }
}
