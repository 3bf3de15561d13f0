package dev.quaestor.pipeline;

/**
 * What a read produced: either complete content, already audited, or content still to be streamed
 * ({@link StreamedRead}), whose outcome is audited as it is written.
 */
public sealed interface ReadResult permits ReadResult.Complete, StreamedRead {

    /** Small content, read whole, its outcome committed. {@code text}: UTF-8 text rather than binary. */
    record Complete(String uri, String mimeType, boolean text, byte[] bytes) implements ReadResult {
    }
}
