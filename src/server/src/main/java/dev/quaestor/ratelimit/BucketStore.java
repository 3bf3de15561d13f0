package dev.quaestor.ratelimit;

import io.github.bucket4j.BucketConfiguration;
import io.github.bucket4j.ConsumptionProbe;

/** Where token buckets live: this process ({@link LocalBucketStore}) or Redis ({@link RedisBucketStore}). */
public interface BucketStore {

    /**
     * Takes one token from the bucket named {@code key}, creating it with {@code config} if absent.
     *
     * @throws BucketStoreUnavailableException when the store cannot answer within its time bound
     */
    ConsumptionProbe consume(String key, BucketConfiguration config);

    /** For metrics and logs: memory or redis. */
    String name();
}
