package dev.quaestor.ratelimit;

import io.github.bucket4j.BucketConfiguration;
import io.github.bucket4j.ConsumptionProbe;

/** Where token buckets live: this process ({@link LocalBucketStore}) or Redis ({@link RedisBucketStore}). */
public interface BucketStore {

    /**
     * Takes {@code tokens} from the bucket named {@code key} (all of them or none), creating it with {@code config}
     * if absent.
     *
     * @throws BucketStoreUnavailableException when the store cannot answer within its time bound
     */
    ConsumptionProbe consume(String key, BucketConfiguration config, long tokens);

    /** Takes one token ({@link #consume(String, BucketConfiguration, long)}). */
    default ConsumptionProbe consume(String key, BucketConfiguration config) {
        return consume(key, config, 1);
    }

    /** For metrics and logs: memory or redis. */
    String name();
}
