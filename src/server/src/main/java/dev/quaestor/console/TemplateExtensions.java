package dev.quaestor.console;

import io.quarkus.qute.TemplateExtension;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Instant;

/** Small helpers the console's templates use. */
@TemplateExtension
public class TemplateExtensions {

    private TemplateExtensions() {
    }

    /** {@code {value.urlEncode}}: the text as one query parameter value. */
    static String urlEncode(String s) {
        return s == null ? "" : URLEncoder.encode(s, StandardCharsets.UTF_8);
    }

    /** {@code {hash.short}}: the first 12 characters of a hash, for tables. */
    static String shortHash(String s) {
        return s == null ? "" : s.length() <= 12 ? s : s.substring(0, 12) + "…";
    }

    /** {@code {time.utc}}: a time as the pages show one in UTC, to the second ({@code 2026-12-04 04:10:09Z}). */
    static String utc(Instant t) {
        return ShownTime.utc(t);
    }

    /** {@code {n.pad}}: a line number right-aligned in four columns. */
    static String pad(int n) {
        return String.format("%4d", n);
    }
}
