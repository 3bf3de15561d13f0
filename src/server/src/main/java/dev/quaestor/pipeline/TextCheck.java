package dev.quaestor.pipeline;

import dev.quaestor.provider.ContentTooLargeException;
import java.io.IOException;
import java.io.InputStream;

/**
 * Whether large content its provider calls text goes out as {@code text} or as a {@code blob}, decided before any of
 * it is sent. A provider judges text by the first bytes, but a {@code text} value can carry only UTF-8, and a streamed
 * response cannot change its mind part-way: so content is streamed as text only if every byte is known to be UTF-8
 * first. Content that can be read twice is read through once ({@code rest}, checked without decoding it to
 * characters) and sent from its second stream ({@code again}): as text if the check passed, else as a blob of the same
 * bytes, as held content is. Content that can be read only once goes as a blob. Should the bytes change between the
 * check and the send, the send's own check ({@link ContentEncoder.JsonText}) still aborts the read.
 */
final class TextCheck {

    private TextCheck() {
    }

    /**
     * The content to send: {@code content} itself if it is held whole or not text; otherwise from its second stream,
     * {@code text} only if every byte of the first was UTF-8. Reads past {@code maxBytes} are refused here, before
     * anything is sent. The checked stream is closed; on failure the caller closes the second.
     */
    static OpenedContent settle(OpenedContent content, long maxBytes) throws IOException {
        if (content.complete() || !content.text()) {
            return content;
        }
        if (content.again() == null) {
            return new OpenedContent(content.entry(), false, content.head(), content.rest());
        }
        byte[] head = content.head();
        var check = new Utf8.Check();
        boolean utf8 = check.add(head, 0, head.length);
        long count = head.length;
        try (InputStream in = content.rest()) {
            byte[] buf = new byte[StreamedRead.CHUNK];
            for (int n; utf8 && (n = in.read(buf)) >= 0; ) {
                count += n;
                if (count > maxBytes) {
                    throw new ContentTooLargeException(maxBytes);
                }
                utf8 = check.add(buf, 0, n);
            }
        }
        return new OpenedContent(content.entry(), utf8 && check.complete(), new byte[0], content.again());
    }
}
