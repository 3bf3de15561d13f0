package dev.quaestor.support;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * An SSE response read on a thread of its own: every {@code data:} event, parsed as JSON, with the time it
 * arrived; the end of the stream is an event of its own ({@link #ended}). Comments (keep-alives) are skipped.
 */
public final class SseEvents implements AutoCloseable {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final JsonNode END = JSON.createObjectNode().put("end", true);

    /** One event and when it arrived ({@link System#nanoTime}). */
    public record Event(JsonNode json, long nanoTime) {
    }

    private final BlockingQueue<Event> events = new LinkedBlockingQueue<>();
    private final InputStream body;
    private final Thread reader;
    private volatile long endedAt;

    public SseEvents(InputStream body) {
        this.body = body;
        this.reader = new Thread(this::read, "sse-events");
        reader.setDaemon(true);
        reader.start();
    }

    private void read() {
        try (var in = new BufferedReader(new InputStreamReader(body, StandardCharsets.UTF_8))) {
            StringBuilder data = new StringBuilder();
            String line;
            while ((line = in.readLine()) != null) {
                if (line.isEmpty()) {
                    if (data.length() > 0) {
                        events.add(new Event(JSON.readTree(data.toString()), System.nanoTime()));
                        data.setLength(0);
                    }
                } else if (line.startsWith("data:")) {
                    data.append(line.substring(line.startsWith("data: ") ? 6 : 5));
                } else if (line.startsWith("id:")) {
                    events.add(new Event(JSON.createObjectNode().put("unexpectedEventId", line), System.nanoTime()));
                }
            }
        } catch (IOException e) {
            // closed by the test, or cut by the server: either way the stream has ended
        } finally {
            endedAt = System.nanoTime();
            events.add(new Event(END, System.nanoTime()));
        }
    }

    /** The next event within the time, or null. */
    public Event next(long millis) throws InterruptedException {
        return events.poll(millis, TimeUnit.MILLISECONDS);
    }

    public static boolean ended(Event e) {
        return e != null && e.json() == END;
    }

    /** When the stream ended ({@link System#nanoTime}), or 0 while it is open. */
    public long endedAt() {
        return endedAt;
    }

    @Override
    public void close() throws IOException {
        body.close();
        reader.interrupt();
    }
}
