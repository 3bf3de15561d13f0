package dev.quaestor.ratelimit;

import dev.quaestor.support.LocalRedis;
import dev.quaestor.support.Wait;
import io.github.bucket4j.BandwidthBuilder;
import io.github.bucket4j.BucketConfiguration;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The Redis bucket store against a real redis-server that the test stops and starts. */
class RedisBucketStoreTest {

    private static LocalRedis redis;

    @BeforeAll
    static void startRedis() throws Exception {
        redis = new LocalRedis();
    }

    @AfterAll
    static void stopRedis() throws Exception {
        redis.close();
    }

    private static RateLimitConfig.Redis config(String url) {
        String prefix = "quaestor-test:" + UUID.randomUUID() + ":";
        return new RateLimitConfig.Redis() {
            @Override
            public String url() {
                return url;
            }

            @Override
            public Duration timeout() {
                return Duration.ofMillis(250);
            }

            @Override
            public String keyPrefix() {
                return prefix;
            }
        };
    }

    private static final BucketConfiguration FIVE_PER_HOUR = BucketConfiguration.builder()
            .addLimit(BandwidthBuilder.builder().capacity(5).refillGreedy(5, Duration.ofHours(1)).build()).build();

    @Test
    void replicasShareOneBucket() {
        var c = config(redis.url());
        try (var replicaA = new RedisBucketStore(c); var replicaB = new RedisBucketStore(c)) {
            String key = "per-user|SUBJECT|5/5/3600000\u0000alice";
            int admitted = 0;
            for (int i = 0; i < 12; i++) {
                var store = i % 2 == 0 ? replicaA : replicaB;
                if (store.consume(key, FIVE_PER_HOUR).isConsumed()) {
                    admitted++;
                }
            }
            assertEquals(5, admitted, "two stores on one Redis enforce one limit, not two");
            assertTrue(replicaB.consume("per-user|SUBJECT|5/5/3600000\u0000bob", FIVE_PER_HOUR).isConsumed(),
                    "another key has its own bucket");
        }
    }

    @Test
    void keysDoNotCarrySubjectsInClear() {
        try (var store = new RedisBucketStore(config(redis.url()))) {
            String key = new String(store.redisKey("per-user|SUBJECT|5/5/3600000\u0000alice@example.org"));
            assertTrue(key.contains("per-user:"), key);
            assertFalse(key.contains("alice"), key);
        }
    }

    @Test
    void anOutageFailsFastAndRecoveryNeedsNoRestart() throws Exception {
        try (var store = new RedisBucketStore(config(redis.url()))) {
            String key = "k|SUBJECT|5/5/3600000\u0000x";
            assertTrue(store.consume(key, FIVE_PER_HOUR).isConsumed());

            redis.stop();
            long start = System.nanoTime();
            for (int i = 0; i < 5; i++) {
                assertThrows(BucketStoreUnavailableException.class, () -> store.consume(key, FIVE_PER_HOUR));
            }
            long perCallMs = (System.nanoTime() - start) / 5 / 1_000_000;
            assertTrue(perCallMs < 1_000, "a dead Redis answers within the bound, took " + perCallMs + " ms per call");

            redis.start();
            boolean recovered = Wait.holdsWithin(Duration.ofSeconds(15), Duration.ofMillis(100), () -> {
                try {
                    return store.consume(key, FIVE_PER_HOUR).isConsumed();
                } catch (BucketStoreUnavailableException stillDown) {
                    return false;
                }
            });
            assertTrue(recovered, "the store reconnected by itself");
        }
    }

    /**
     * A connect that never completes (the address drops the handshake's first packet, as a firewall or a host that
     * is gone does) is given up after the store's timeout, on start and on the next request, not after the client
     * library's 10 s. Here a listener that never accepts, whose accept queue is full: the kernel drops new SYNs.
     */
    @Test
    void aConnectThatHangsIsGivenUpWithinTheTimeout() throws Exception {
        try (var listener = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            var address = new InetSocketAddress(InetAddress.getLoopbackAddress(), listener.getLocalPort());
            List<Socket> queued = new ArrayList<>();
            try {
                fillAcceptQueue(address, queued);
                long start = System.nanoTime();
                try (var store = new RedisBucketStore(config("redis://127.0.0.1:" + address.getPort()))) {
                    long startedMs = (System.nanoTime() - start) / 1_000_000;
                    assertTrue(startedMs < 1_000, "the store starts within its timeout, took " + startedMs + " ms");
                    long asked = System.nanoTime();
                    assertThrows(BucketStoreUnavailableException.class,
                            () -> store.consume("k|SUBJECT|5/5/3600000\u0000x", FIVE_PER_HOUR));
                    long askedMs = (System.nanoTime() - asked) / 1_000_000;
                    assertTrue(askedMs < 1_000, "a request fails within the timeout, took " + askedMs + " ms");
                }
            } finally {
                for (Socket s : queued) {
                    s.close();
                }
            }
        }
    }

    /**
     * A server that accepts the connection and never answers, neither the Redis handshake nor (rediss) the TLS one,
     * holds nothing past the timeout either.
     */
    @ParameterizedTest
    @ValueSource(strings = {"redis", "rediss"})
    void aServerThatNeverAnswersTheHandshakeIsGivenUpWithinTheTimeout(String scheme) throws Exception {
        try (var listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            List<Socket> accepted = new ArrayList<>();
            Thread acceptor = new Thread(() -> {
                try {
                    while (true) {
                        Socket s = listener.accept();
                        synchronized (accepted) {
                            accepted.add(s);
                        }
                    }
                } catch (IOException closed) {
                    // the test is over
                }
            }, "silent-redis");
            acceptor.setDaemon(true);
            acceptor.start();
            try {
                long start = System.nanoTime();
                try (var store = new RedisBucketStore(config(scheme + "://127.0.0.1:" + listener.getLocalPort()))) {
                    long startedMs = (System.nanoTime() - start) / 1_000_000;
                    assertTrue(startedMs < 1_000, "the store starts within its timeout, took " + startedMs + " ms");
                    long asked = System.nanoTime();
                    assertThrows(BucketStoreUnavailableException.class,
                            () -> store.consume("k|SUBJECT|5/5/3600000\u0000x", FIVE_PER_HOUR));
                    long askedMs = (System.nanoTime() - asked) / 1_000_000;
                    assertTrue(askedMs < 1_000, "a request fails within the timeout, took " + askedMs + " ms");
                }
                synchronized (accepted) {
                    assertFalse(accepted.isEmpty(), "the store did reach the silent server");
                }
            } finally {
                listener.close();
                synchronized (accepted) {
                    for (Socket s : accepted) {
                        s.close();
                    }
                }
            }
        }
    }

    /** Connects until a connect no longer completes: the listener's accept queue is full and new SYNs are dropped. */
    private static void fillAcceptQueue(InetSocketAddress address, List<Socket> queued) throws IOException {
        for (int i = 0; i < 64; i++) {
            Socket s = new Socket();
            try {
                s.connect(address, 300);
                queued.add(s);
            } catch (SocketTimeoutException full) {
                s.close();
                return;
            }
        }
        throw new IllegalStateException("the accept queue of " + address + " did not fill");
    }

    @Test
    void startsWhileRedisIsAbsentAndConnectsLater() throws Exception {
        try (var store = new RedisBucketStore(config("redis://127.0.0.1:1"))) {
            assertThrows(BucketStoreUnavailableException.class,
                    () -> store.consume("k|SUBJECT|1/1/1000\u0000x", FIVE_PER_HOUR));
        }
    }
}
