package dev.quaestor.bench.load;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.function.BooleanSupplier;

/** Start-up is measured from process start to the first UP from {@code /q/health/ready}, polled every 10 ms. */
public final class ReadyProbe {

    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(1)).build();

    private ReadyProbe() {
    }

    /** Polls until ready; false if the process died or {@code within} passed first. */
    public static boolean await(String baseUrl, Duration within, BooleanSupplier alive) throws InterruptedException {
        long deadline = System.nanoTime() + within.toNanos();
        var req = HttpRequest.newBuilder(URI.create(baseUrl + "/q/health/ready")).timeout(Duration.ofSeconds(2)).build();
        while (System.nanoTime() < deadline && alive.getAsBoolean()) {
            try {
                if (HTTP.send(req, HttpResponse.BodyHandlers.discarding()).statusCode() == 200) {
                    return true;
                }
            } catch (IOException notYet) {
                // not listening yet
            }
            Thread.sleep(10);
        }
        return false;
    }
}
