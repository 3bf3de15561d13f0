package dev.quaestor.mcp.stateless;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The 2026-07-28 standard headers against the body. */
class RequestHeadersTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    private static String b64(String s) {
        return "=?base64?" + Base64.getEncoder().encodeToString(s.getBytes(StandardCharsets.UTF_8)) + "?=";
    }

    @Test
    void methodMustBePresentAndEqual() {
        assertNull(RequestHeaders.methodMismatch("resources/read", "resources/read"));
        assertNull(RequestHeaders.methodMismatch(" \tresources/read  ", "resources/read"), "spaces and tabs around are trimmed");
        assertNotNull(RequestHeaders.methodMismatch(null, "resources/read"));
        assertNotNull(RequestHeaders.methodMismatch("resources/list", "resources/read"));
        assertNotNull(RequestHeaders.methodMismatch("RESOURCES/READ", "resources/read"), "values are case-sensitive");
        assertNotNull(RequestHeaders.methodMismatch("resources/r\u00e9ad", "resources/r\u00e9ad"), "not visible ASCII");
    }

    @Test
    void nameIsComparedPlainOrDecoded() {
        String uri = "file:///docs/handbook/welcome.md";
        assertNull(RequestHeaders.nameMismatch(uri, uri));
        assertNull(RequestHeaders.nameMismatch("  " + uri + "  ", uri));
        assertNull(RequestHeaders.nameMismatch(b64(uri), uri), "a client may encode any value");
        String unicode = "test://\u00fcn\u00ef code";
        assertEquals("=?base64?dGVzdDovL8O8bsOvIGNvZGU=?=", b64(unicode), "the specification's own example");
        assertNull(RequestHeaders.nameMismatch(b64(unicode), unicode));
        assertNotNull(RequestHeaders.nameMismatch(null, uri));
        assertNotNull(RequestHeaders.nameMismatch("file:///docs/handbook/other.md", uri));
        assertNotNull(RequestHeaders.nameMismatch(b64("file:///docs/home/bob/notes.md"), uri), "decoded, it names another URI");
        assertNotNull(RequestHeaders.nameMismatch(unicode, unicode), "outside visible ASCII it must be encoded");
        // Not canonical padded Base64, or not UTF-8: refused, never guessed at.
        String unpadded = "=?base64?" + Base64.getEncoder().withoutPadding().encodeToString("ab".getBytes(StandardCharsets.UTF_8)) + "?=";
        assertNotNull(RequestHeaders.nameMismatch(unpadded, "ab"));
        assertNotNull(RequestHeaders.nameMismatch("=?base64?" + Base64.getEncoder().encodeToString(new byte[] {(byte) 0xc3, 0x28}) + "?=", "x"));
        assertNotNull(RequestHeaders.nameMismatch("=?base64?ab$d?=", "x"));
        assertNotNull(RequestHeaders.nameMismatch("=?BASE64?" + Base64.getEncoder().encodeToString(uri.getBytes(StandardCharsets.UTF_8)) + "?=", uri),
                "the markers are lower case");
    }

    @Test
    void decodeAcceptsOnlyCanonicalBase64OfUtf8() {
        assertEquals("ab", RequestHeaders.decode("YWI="));
        assertNull(RequestHeaders.decode("YWI"));
        assertNull(RequestHeaders.decode("YW I="));
        assertEquals("", RequestHeaders.decode(""));
    }

    /** Base64 with non-zero bits after the last byte decodes to the same text as the canonical form: refused. */
    @Test
    void decodeRefusesNonZeroTrailingBits() {
        assertEquals("A", RequestHeaders.decode("QQ=="));
        assertNull(RequestHeaders.decode("QR=="), "QR== would also decode to A");
        assertNull(RequestHeaders.decode("QX=="));
        assertEquals("ab", RequestHeaders.decode("YWI="));
        assertNull(RequestHeaders.decode("YWJ="), "YWJ= would also decode to ab");
        assertNull(RequestHeaders.decode("YWL="));
        String uri = "file:///docs/handbook/welcome.md";
        String canonical = Base64.getEncoder().encodeToString(uri.getBytes(StandardCharsets.UTF_8));
        assertEquals(uri, RequestHeaders.decode(canonical));
        assertNull(RequestHeaders.nameMismatch("=?base64?" + canonical + "?=", uri));
        // The same URI with the last character's unused bits set: the header no longer states it.
        String tampered = canonical.substring(0, canonical.length() - 2) + (char) (canonical.charAt(canonical.length() - 2) + 1) + "=";
        assertEquals(uri, new String(Base64.getDecoder().decode(tampered), StandardCharsets.UTF_8), "the JDK would read it as the URI");
        assertNotNull(RequestHeaders.nameMismatch("=?base64?" + tampered + "?=", uri));
    }

    @Test
    void envelopeNamesWhatIsMissing() throws Exception {
        assertTrue(Envelope.problem(null).contains("_meta"));
        assertTrue(Envelope.problem(JSON.readTree("{}")).contains("_meta"));
        String noVersion = Envelope.problem(JSON.readTree("{\"_meta\":{\"io.modelcontextprotocol/clientCapabilities\":{}}}"));
        assertTrue(noVersion.contains("protocolVersion") && !noVersion.contains("clientCapabilities"), noVersion);
        String noCaps = Envelope.problem(JSON.readTree("{\"_meta\":{\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\"}}"));
        assertTrue(noCaps.contains("clientCapabilities") && !noCaps.contains("protocolVersion"), noCaps);
        var whole = JSON.readTree("{\"_meta\":{\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\","
                + "\"io.modelcontextprotocol/clientCapabilities\":{},\"io.modelcontextprotocol/clientInfo\":{\"name\":\"n\",\"version\":\"1\"}}}");
        assertNull(Envelope.problem(whole));
        assertEquals("n/1", Envelope.of(whole).clientInfo());
    }
}
