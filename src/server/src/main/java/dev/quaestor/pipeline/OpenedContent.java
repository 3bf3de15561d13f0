package dev.quaestor.pipeline;

import dev.quaestor.provider.ContentTooLargeException;
import dev.quaestor.provider.ResourceContent;
import dev.quaestor.provider.ResourceEntry;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A provider's content once opened inside the mount's time box: either complete ({@code rest} is
 * null and {@code head} holds every byte, at most the buffer limit) or the first bytes and the
 * open stream of the rest.
 */
record OpenedContent(ResourceEntry entry, boolean text, byte[] head, InputStream rest) {

    boolean complete() {
        return rest == null;
    }

    /** Closes the rest of content that will not be sent. */
    void discard() {
        if (rest != null) {
            try {
                rest.close();
            } catch (IOException ignored) {
                // nothing was or will be sent from it
            }
        }
    }

    /**
     * Opens {@code content} and reads up to {@code bufferLimit + 1} bytes. An open stream is put in
     * {@code opened} first, so the caller can close it if the time box ends the call.
     */
    static OpenedContent open(ResourceContent content, int bufferLimit, long maxBytes, AtomicReference<InputStream> opened) {
        if (content.length() > maxBytes) {
            throw new ContentTooLargeException(maxBytes, content.length());
        }
        if (content.inMemory() && content.bytes().length <= bufferLimit) {
            return new OpenedContent(content.entry(), content.text(), content.bytes(), null);
        }
        try {
            InputStream in = content.open();
            opened.set(in);
            byte[] head = in.readNBytes(bufferLimit + 1);
            if (head.length > maxBytes) {
                throw new ContentTooLargeException(maxBytes);
            }
            if (head.length <= bufferLimit) {
                opened.set(null);
                in.close();
                return new OpenedContent(content.entry(), content.text(), head, null);
            }
            return new OpenedContent(content.entry(), content.text(), head, in);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
