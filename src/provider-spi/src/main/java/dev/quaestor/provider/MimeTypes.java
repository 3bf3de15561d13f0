package dev.quaestor.provider;

import java.nio.ByteBuffer;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Map;

/**
 * MIME type by file extension, falling back to a look at the bytes, and whether a type is sent as
 * text. The JDK's probeContentType depends on the host's mime database, so a fixed table keeps
 * every replica answering the same.
 */
public final class MimeTypes {

    public static final String OCTET_STREAM = "application/octet-stream";

    private static final Map<String, String> BY_EXTENSION = Map.ofEntries(
            Map.entry("txt", "text/plain"), Map.entry("text", "text/plain"), Map.entry("log", "text/plain"),
            Map.entry("md", "text/markdown"), Map.entry("markdown", "text/markdown"),
            Map.entry("csv", "text/csv"), Map.entry("tsv", "text/tab-separated-values"),
            Map.entry("html", "text/html"), Map.entry("htm", "text/html"), Map.entry("css", "text/css"),
            Map.entry("xml", "application/xml"), Map.entry("json", "application/json"),
            Map.entry("jsonl", "application/jsonl"), Map.entry("yaml", "application/yaml"),
            Map.entry("yml", "application/yaml"), Map.entry("js", "text/javascript"),
            Map.entry("java", "text/x-java"), Map.entry("py", "text/x-python"), Map.entry("sh", "text/x-shellscript"),
            Map.entry("sql", "application/sql"), Map.entry("svg", "image/svg+xml"),
            Map.entry("png", "image/png"), Map.entry("jpg", "image/jpeg"), Map.entry("jpeg", "image/jpeg"),
            Map.entry("gif", "image/gif"), Map.entry("webp", "image/webp"), Map.entry("pdf", "application/pdf"),
            Map.entry("zip", "application/zip"), Map.entry("gz", "application/gzip"),
            Map.entry("docx", "application/vnd.openxmlformats-officedocument.wordprocessingml.document"),
            Map.entry("xlsx", "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"),
            Map.entry("bin", OCTET_STREAM));

    private MimeTypes() {
    }

    /** By extension only; null when the extension is unknown. */
    public static String byName(String fileName) {
        int dot = fileName.lastIndexOf('.');
        return dot < 0 ? null : BY_EXTENSION.get(fileName.substring(dot + 1).toLowerCase(Locale.ROOT));
    }

    /** By extension, else text/plain for NUL-free valid UTF-8, else application/octet-stream. */
    public static String detect(String fileName, byte[] head) {
        String byName = byName(fileName);
        if (byName != null) {
            return byName;
        }
        return looksLikeText(head) ? "text/plain" : OCTET_STREAM;
    }

    public static boolean isText(String mimeType) {
        if (mimeType == null) {
            return false;
        }
        String m = mimeType.toLowerCase(Locale.ROOT);
        int semi = m.indexOf(';');
        if (semi >= 0) {
            m = m.substring(0, semi).trim();
        }
        return m.startsWith("text/") || m.equals("application/json") || m.equals("application/jsonl")
                || m.equals("application/xml") || m.equals("application/yaml") || m.equals("application/sql")
                || m.equals("image/svg+xml") || m.endsWith("+json") || m.endsWith("+xml");
    }

    /** True if the bytes could be served as text: valid UTF-8 with no NUL. */
    public static boolean looksLikeText(byte[] bytes) {
        return looksLikeText(bytes, true);
    }

    /**
     * True if the first bytes of a longer resource could begin text: valid UTF-8 with no NUL,
     * allowing a character cut off at the end. A streamed text resource that turns out not to
     * be UTF-8 further on is aborted when that is reached.
     */
    public static boolean looksLikeTextPrefix(byte[] head) {
        return looksLikeText(head, false);
    }

    private static boolean looksLikeText(byte[] bytes, boolean complete) {
        for (byte b : bytes) {
            if (b == 0) {
                return false;
            }
        }
        var decoder = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                .onUnmappableCharacter(CodingErrorAction.REPORT);
        var in = ByteBuffer.wrap(bytes);
        var out = java.nio.CharBuffer.allocate(Math.max(16, bytes.length));
        var result = decoder.decode(in, out, complete);
        if (result.isError()) {
            return false;
        }
        // A cut-off character leaves at most three bytes undecoded.
        return complete ? !decoder.flush(out).isError() : in.remaining() <= 3;
    }
}
