package dev.quaestor.http;

import io.vertx.ext.web.RoutingContext;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A refusal answered at the door, from a route filter, before any resource has the request: its status, its headers
 * in the order given, then its body. It is written only while the client is still there (one that left while its
 * refusal was being recorded is on record all the same); after it the connection can be closed, for a request whose
 * unread body leaves the connection unusable.
 */
public final class RouteRefusal {

    private final int status;
    private final List<Map.Entry<String, String>> headers = new ArrayList<>();

    public RouteRefusal(int status) {
        this.status = status;
    }

    /** Adds a header, set after those added before it (a later one of the same name replaces an earlier one). */
    public RouteRefusal header(String name, String value) {
        headers.add(Map.entry(name, value));
        return this;
    }

    /** Writes the refusal with {@code body}; {@code close}: says {@code Connection: close}, and closes it once sent. */
    public void send(RoutingContext rc, String body, boolean close) {
        var response = rc.response();
        if (response.ended() || response.closed()) {
            return;
        }
        response.setStatusCode(status);
        for (var h : headers) {
            response.putHeader(h.getKey(), h.getValue());
        }
        if (close) {
            response.putHeader("Connection", "close");
            response.end(body).onComplete(done -> rc.request().connection().close());
        } else {
            response.end(body);
        }
    }
}
