package dev.quaestor.pipeline;

import dev.quaestor.provider.ContentTooLargeException;
import dev.quaestor.provider.ResourceContent;
import dev.quaestor.provider.ResourceEntry;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Collection;

/**
 * A provider's content once opened inside the mount's time box: either complete ({@code rest} is
 * null and {@code head} holds every byte, at most the buffer limit) or the first bytes and the
 * open stream of the rest. Large text from content that can be read twice also has {@code again}, a second stream
 * of it from its first byte, opened at the same time: the one to send once {@link TextCheck} has read {@code rest}
 * through. Otherwise {@code again} is null.
 */
record OpenedContent(ResourceEntry entry, boolean text, byte[] head, InputStream rest, InputStream again) {

    OpenedContent(ResourceEntry entry, boolean text, byte[] head, InputStream rest) {
        this(entry, text, head, rest, null);
    }

    boolean complete() {
        return rest == null;
    }

    /** Closes the rest of content that will not be sent. */
    void discard() {
        close(rest);
        close(again);
    }

    private static void close(InputStream in) {
        if (in != null) {
            try {
                in.close();
            } catch (IOException ignored) {
                // nothing was or will be sent from it
            }
        }
    }

    /**
     * Opens {@code content} and reads up to {@code bufferLimit + 1} bytes; more than that, if it is text that can be
     * read twice, is opened a second time ({@code again}). Each stream is put in {@code opened} as it is opened, and
     * taken out if closed here, so the caller can close what is left open if the time box ends the call.
     */
    static OpenedContent open(ResourceContent content, int bufferLimit, long maxBytes, Collection<InputStream> opened) {
        if (content.length() > maxBytes) {
            throw new ContentTooLargeException(maxBytes, content.length());
        }
        if (content.inMemory() && content.bytes().length <= bufferLimit) {
            return new OpenedContent(content.entry(), content.text(), content.bytes(), null);
        }
        try {
            InputStream in = content.open();
            opened.add(in);
            byte[] head = in.readNBytes(bufferLimit + 1);
            if (head.length > maxBytes) {
                throw new ContentTooLargeException(maxBytes);
            }
            if (head.length <= bufferLimit) {
                opened.remove(in);
                in.close();
                return new OpenedContent(content.entry(), content.text(), head, null);
            }
            InputStream again = null;
            if (content.text() && content.rereadable()) {
                again = content.open();
                opened.add(again);
            }
            return new OpenedContent(content.entry(), content.text(), head, in, again);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
