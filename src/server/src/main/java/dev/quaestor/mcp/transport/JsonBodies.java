package dev.quaestor.mcp.transport;

import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectReader;
import jakarta.enterprise.context.ApplicationScoped;
import java.io.IOException;

/**
 * Reads an MCP POST body as exactly one JSON value in UTF-8, or not at all. A gateway in front that inspects
 * bodies must see the request this server serves, so nothing a lenient parser would quietly make sense of is
 * accepted: another encoding (UTF-16 and UTF-32 are recognised by their NUL bytes, which JSON text never holds
 * raw), a byte order mark, ill-formed or overlong UTF-8 ({@code C0 AF} read as {@code /}), an encoded
 * surrogate, anything after the first value, or a member name twice in one object (one reader takes the first,
 * another the last). The caller answers any of these with -32700 and HTTP 400.
 */
@ApplicationScoped
public class JsonBodies {

    private final ObjectReader reader;

    JsonBodies(ObjectMapper json) {
        this.reader = json.reader().with(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
                .with(StreamReadFeature.STRICT_DUPLICATE_DETECTION);
    }

    /**
     * A body read: its one JSON value, or why it has none, as a short fixed phrase that quotes nothing of the body
     * (it goes on record).
     */
    record Read(JsonNode root, String problem) {
    }

    static final String EMPTY = "empty body";
    static final String NOT_UTF8 = "not well-formed UTF-8, or with a byte order mark or NUL";
    static final String NOT_ONE_VALUE = "not exactly one JSON value";

    /** The one JSON value of the body, or null if the body is not exactly that in well-formed UTF-8. */
    JsonNode parse(byte[] body) {
        return read(body).root();
    }

    /** The one JSON value of the body, or why the body is not exactly that in well-formed UTF-8. */
    Read read(byte[] body) {
        if (body == null || body.length == 0) {
            return new Read(null, EMPTY);
        }
        if (!wellFormedUtf8(body)) {
            return new Read(null, NOT_UTF8);
        }
        try {
            JsonNode root = reader.readTree(body);
            return root == null || root.isMissingNode() ? new Read(null, NOT_ONE_VALUE) : new Read(root, null);
        } catch (IOException e) {
            return new Read(null, NOT_ONE_VALUE);
        }
    }

    /**
     * Whether a {@code Content-Type} leaves the body UTF-8: no {@code charset} parameter (JSON is UTF-8, RFC 8259),
     * or {@code charset=utf-8}. A gateway that honoured another declared charset would read other text than this
     * server does.
     */
    static boolean declaresUtf8(String contentType) {
        if (contentType == null) {
            return true;
        }
        for (String param : contentType.split(";")) {
            int eq = param.indexOf('=');
            if (eq > 0 && param.substring(0, eq).strip().equalsIgnoreCase("charset")) {
                String v = param.substring(eq + 1).strip();
                if (v.length() >= 2 && v.startsWith("\"") && v.endsWith("\"")) {
                    v = v.substring(1, v.length() - 1);
                }
                if (!v.equalsIgnoreCase("utf-8")) {
                    return false;
                }
            }
        }
        return true;
    }

    /**
     * Whether the bytes are well-formed UTF-8 as RFC 3629 defines it (shortest forms only, no surrogates, nothing
     * above U+10FFFF), without a byte order mark and without NUL.
     */
    static boolean wellFormedUtf8(byte[] b) {
        if (b.length >= 3 && (b[0] & 0xff) == 0xEF && (b[1] & 0xff) == 0xBB && (b[2] & 0xff) == 0xBF) {
            return false;
        }
        int i = 0;
        int n = b.length;
        while (i < n) {
            int c = b[i];
            if (c > 0) {
                i++;
                continue;
            }
            if (c == 0) {
                return false;
            }
            c &= 0xff;
            int need;
            int lo = 0x80;
            int hi = 0xBF;
            if (c >= 0xC2 && c <= 0xDF) {
                need = 1;
            } else if (c >= 0xE0 && c <= 0xEF) {
                need = 2;
                if (c == 0xE0) {
                    lo = 0xA0; // below: overlong
                } else if (c == 0xED) {
                    hi = 0x9F; // above: UTF-16 surrogates
                }
            } else if (c >= 0xF0 && c <= 0xF4) {
                need = 3;
                if (c == 0xF0) {
                    lo = 0x90; // below: overlong
                } else if (c == 0xF4) {
                    hi = 0x8F; // above: past U+10FFFF
                }
            } else {
                return false; // a stray continuation byte, C0/C1 (always overlong), or F5..FF
            }
            if (i + need >= n) {
                return false; // cut off
            }
            int second = b[i + 1] & 0xff;
            if (second < lo || second > hi) {
                return false;
            }
            for (int k = 2; k <= need; k++) {
                int cont = b[i + k] & 0xff;
                if (cont < 0x80 || cont > 0xBF) {
                    return false;
                }
            }
            i += need + 1;
        }
        return true;
    }
}
