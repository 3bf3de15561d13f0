package dev.quaestor.pipeline;

import dev.quaestor.mcp.schema.McpError;
import dev.quaestor.mcp.schema.Schema;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;

/**
 * What {@code resources/read} produced: a complete result whose audit records are still being
 * committed ({@link Committing}), or content still to be streamed ({@link StreamedRead}), whose
 * outcome is audited as it is written.
 */
public sealed interface ReadResult permits ReadResult.Committing, StreamedRead {

    /**
     * Small content, read whole, its {@code DECISION} and {@code OUTCOME} queued: {@code result}
     * completes with what may be sent once both are durable, or fails with an {@link McpError}
     * (-32005) if they are not. Nothing of it may be sent before. It completes on the audit writer's
     * thread, so the caller does no more there than hand it on; a caller that may block waits with
     * {@link #await}.
     */
    record Committing(CompletionStage<Schema.ReadResourceResult> result) implements ReadResult {

        /** Blocks until the records are durable; throws the {@link McpError} the request fails with otherwise. */
        public Schema.ReadResourceResult await() {
            try {
                return result.toCompletableFuture().join();
            } catch (CompletionException e) {
                throw e.getCause() instanceof McpError m ? m : e;
            }
        }
    }
}
