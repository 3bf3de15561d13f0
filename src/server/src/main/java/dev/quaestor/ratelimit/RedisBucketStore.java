package dev.quaestor.ratelimit;

import io.github.bucket4j.BucketConfiguration;
import io.github.bucket4j.ConsumptionProbe;
import io.github.bucket4j.distributed.ExpirationAfterWriteStrategy;
import io.github.bucket4j.distributed.proxy.ProxyManager;
import io.github.bucket4j.redis.lettuce.Bucket4jLettuce;
import io.lettuce.core.ClientOptions;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.TimeoutOptions;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.codec.ByteArrayCodec;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.Base64;
import java.util.concurrent.atomic.AtomicLong;
import org.jboss.logging.Logger;

/**
 * Buckets in Redis, shared by every replica, through Bucket4j's Lettuce integration
 * (compare-and-swap on one key per bucket). Every operation is bounded by the configured
 * timeout; when Redis is down commands are rejected at once rather than queued, and the caller's
 * limit decides whether that fails closed or open. Keys carry a hash of the bucket key, so
 * subject ids and IP addresses are not written to Redis in clear.
 */
final class RedisBucketStore implements BucketStore, AutoCloseable {

    private static final Logger LOG = Logger.getLogger(RedisBucketStore.class);
    private static final long RECONNECT_INTERVAL_NANOS = 1_000_000_000L;

    private final RedisClient client;
    private final String prefix;
    private final Duration timeout;
    private final AtomicLong nextConnectAttempt = new AtomicLong(System.nanoTime());
    private volatile StatefulRedisConnection<byte[], byte[]> connection;
    private volatile ProxyManager<byte[]> proxies;

    RedisBucketStore(RateLimitConfig.Redis config) {
        this.prefix = config.keyPrefix();
        this.timeout = config.timeout();
        RedisURI uri = RedisURI.create(config.url());
        // Lettuce's timeout for setting a connection up, armed when the channel registers: it bounds the TCP connect,
        // the TLS handshake (rediss) and the Redis handshake together, where they would take 10 s, 10 s and 60 s.
        uri.setTimeout(timeout);
        this.client = RedisClient.create(uri);
        client.setOptions(ClientOptions.builder()
                .autoReconnect(true)
                // Queued commands would wait out an outage; rejected ones let the fail mode decide now.
                .disconnectedBehavior(ClientOptions.DisconnectedBehavior.REJECT_COMMANDS)
                .timeoutOptions(TimeoutOptions.enabled(timeout))
                .build());
        try {
            connect();
        } catch (RuntimeException e) {
            LOG.warnf("Redis at %s is not reachable yet (%s); limits follow their fail mode until it is",
                    uri.toURI().getHost(), e.getMessage());
        }
    }

    @Override
    public ConsumptionProbe consume(String key, BucketConfiguration config, long tokens) {
        ProxyManager<byte[]> p = proxies;
        if (p == null) {
            p = connectIfDue();
        }
        try {
            return p.getProxy(redisKey(key), () -> config).tryConsumeAndReturnRemaining(tokens);
        } catch (RuntimeException e) {
            throw new BucketStoreUnavailableException("Redis did not answer: " + e.getMessage(), e);
        }
    }

    @Override
    public String name() {
        return "redis";
    }

    /** One connection attempt per second at most while Redis is away, so requests fail fast meanwhile. */
    private ProxyManager<byte[]> connectIfDue() {
        long now = System.nanoTime();
        long due = nextConnectAttempt.get();
        if (now - due < 0 || !nextConnectAttempt.compareAndSet(due, now + RECONNECT_INTERVAL_NANOS)) {
            throw new BucketStoreUnavailableException("Redis is not connected", null);
        }
        try {
            return connect();
        } catch (RuntimeException e) {
            throw new BucketStoreUnavailableException("Redis is not reachable: " + e.getMessage(), e);
        }
    }

    private synchronized ProxyManager<byte[]> connect() {
        if (proxies != null) {
            return proxies;
        }
        StatefulRedisConnection<byte[], byte[]> c = client.connect(ByteArrayCodec.INSTANCE);
        c.setTimeout(timeout);
        connection = c;
        proxies = Bucket4jLettuce.casBasedBuilder(c)
                .requestTimeout(timeout)
                // A bucket that would be full again is worthless: let Redis drop it.
                .expirationAfterWrite(ExpirationAfterWriteStrategy.basedOnTimeForRefillingBucketUpToMax(Duration.ofSeconds(10)))
                .build();
        LOG.info("rate limits use Redis");
        return proxies;
    }

    byte[] redisKey(String key) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(key.getBytes(StandardCharsets.UTF_8));
            String limitId = key.substring(0, Math.max(0, key.indexOf('|')));
            return (prefix + limitId + ':' + Base64.getUrlEncoder().withoutPadding().encodeToString(digest).substring(0, 27))
                    .getBytes(StandardCharsets.UTF_8);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    @Override
    public void close() {
        var c = connection;
        if (c != null) {
            c.close();
        }
        client.shutdown(Duration.ZERO, Duration.ofSeconds(2));
    }
}
