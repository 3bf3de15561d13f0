package dev.quaestor.bench.isolation;

import dev.quaestor.bench.load.LoadResult;

/**
 * One phase: the legitimate client's reads beside one abuser (or alone), the server's gauges, and what the abuser
 * got from the server.
 *
 * @param late successful reads answered more than 5 s after they were due (counted as errors)
 */
record PhaseResult(String name, LoadResult legit, long late, ServerGauges.Counts before, ServerGauges.Counts after,
        ServerGauges.Peaks peaks, double seconds, String abuse) {

    static final long ANSWER_WITHIN_MICROS = 5_000_000;

    static PhaseResult of(String name, LoadResult legit, ServerGauges.Counts before, ServerGauges.Counts after,
            ServerGauges.Peaks peaks, double seconds, String abuse) {
        var ok = legit.okLatency();
        long late = ok.getTotalCount() == 0 ? 0 : ok.getTotalCount() - ok.getCountBetweenValues(0, ANSWER_WITHIN_MICROS);
        return new PhaseResult(name, legit, late, before, after, peaks, seconds, abuse);
    }

    /** Answers other than a successful read, plus successful reads later than 5 s. */
    long errors() {
        return legit.errorCount() + late;
    }

    double auditRowsPerSecond() {
        return (after.auditRows() - before.auditRows()) / seconds;
    }

    double databaseGrowthMib() {
        return (after.databaseBytes() - before.databaseBytes()) / 1048576.0;
    }
}
