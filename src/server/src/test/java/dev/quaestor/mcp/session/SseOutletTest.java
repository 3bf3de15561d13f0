package dev.quaestor.mcp.session;

import io.smallrye.mutiny.helpers.test.AssertSubscriber;
import jakarta.ws.rs.sse.OutboundSseEvent;
import java.util.concurrent.atomic.AtomicInteger;
import org.jboss.resteasy.reactive.server.jaxrs.SseImpl;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A notification counts as sent once the stream's writer has taken it: what is still waiting in the stream's buffer
 * when the stream ends runs the callback its record's correction hangs on, and what was taken does not.
 */
class SseOutletTest {

    @Test
    void notificationsStillWaitingWhenTheStreamEndsAreReportedNotWritten() {
        var outlet = new SseOutlet("s1", null, new SseImpl());
        var lost = new AtomicInteger();
        AssertSubscriber<OutboundSseEvent> client = outlet.events(() -> { }).subscribe().withSubscriber(AssertSubscriber.create(2));
        assertTrue(outlet.send("{\"n\":1}", lost::incrementAndGet)); // taken by the writer with the opening comment
        assertTrue(outlet.send("{\"n\":2}", lost::incrementAndGet)); // waits: the client reads no more
        assertTrue(outlet.send("{\"n\":3}", lost::incrementAndGet));
        assertEquals(2, client.getItems().size());
        assertEquals(0, lost.get());

        client.cancel(); // the client has gone
        assertEquals(2, lost.get(), "the two notifications never written");
        assertFalse(outlet.send("{\"n\":4}", lost::incrementAndGet), "nothing is queued on an ended stream");
        assertEquals(2, lost.get());
    }

    @Test
    void aStreamClosedAfterItsNotificationsWereWrittenReportsNone() {
        var outlet = new SseOutlet("s2", null, new SseImpl());
        var lost = new AtomicInteger();
        AssertSubscriber<OutboundSseEvent> client = outlet.events(() -> { }).subscribe().withSubscriber(AssertSubscriber.create(10));
        outlet.send("{\"n\":1}", lost::incrementAndGet);
        outlet.send("{\"n\":2}", lost::incrementAndGet);
        outlet.close();
        client.assertCompleted();
        assertEquals(3, client.getItems().size());
        assertEquals(0, lost.get());
    }
}
