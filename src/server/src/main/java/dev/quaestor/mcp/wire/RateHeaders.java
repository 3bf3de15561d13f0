package dev.quaestor.mcp.wire;

import dev.quaestor.ratelimit.RateCheck;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * {@code RateLimit} / {@code RateLimit-Policy} headers in the form of the IETF httpapi
 * ratelimit-headers draft, plus {@code Retry-After} on rejections.
 */
public final class RateHeaders {

    private RateHeaders() {
    }

    public static Map<String, String> of(RateCheck rate) {
        var h = new LinkedHashMap<String, String>();
        if (rate == null || rate.limitId() == null) {
            return h;
        }
        String name = "\"" + rate.limitId().replace("\"", "") + "\"";
        h.put("RateLimit-Policy", name + ";q=" + rate.capacity() + ";w=" + rate.windowSeconds());
        long reset = rate.allowed() ? rate.windowSeconds() : rate.retryAfterSeconds();
        h.put("RateLimit", name + ";r=" + rate.remaining() + ";t=" + reset);
        if (!rate.allowed()) {
            h.put("Retry-After", Long.toString(rate.retryAfterSeconds()));
        }
        return h;
    }
}
