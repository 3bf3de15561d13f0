package dev.quaestor.retention;

import java.nio.file.Path;
import java.time.Duration;

/**
 * What a run of the retention job is told: the age in months past which a month is archived, where archive files go,
 * the verifier key (and TSA root, if checkpoints are anchored) the archive is checked with offline, how many months a
 * run takes at most, and how long it keeps retrying a detach that a long read holds up ({@code lockTimeout} each try).
 */
public record RetentionOptions(int ageMonths, Path out, Path trust, Path tsaCa, int maxMonths, Duration lockTimeout,
        Duration retryFor, Duration retryEvery) {
}
