package dev.quaestor.review;

import java.util.Arrays;
import java.util.Locale;
import java.util.Optional;

/**
 * Whether a person's distinct resources read in a day are a spike: at least {@code spike-minimum}, and above
 * {@code spike-factor} times their usual day. Their usual day is the median of the days they read anything in the
 * baseline window, once they have {@code spike-history-days} of them; someone newer is compared with their peers' usual
 * day (the median of the established people's usual days); with no established peer either, with the minimum itself.
 * Days without reads do not count: a weekend or a holiday is not a usual day of zero.
 */
final class SpikeRule {

    private final double factor;
    private final long minimum;
    private final int historyDays;

    SpikeRule(ReviewConfig config) {
        this(config.spikeFactor(), config.spikeMinimum(), config.spikeHistoryDays());
    }

    SpikeRule(double factor, long minimum, int historyDays) {
        this.factor = factor;
        this.minimum = minimum;
        this.historyDays = historyDays;
    }

    /** Whether {@code activeDays} (the counts of the days with reads) are enough history for a baseline of one's own. */
    boolean established(long[] activeDays) {
        return activeDays.length >= historyDays;
    }

    /** The usual day of someone with enough history: the median of their days with reads. */
    static double usual(long[] activeDays) {
        return median(activeDays);
    }

    /**
     * Why {@code today} is a spike for someone with these days of reads, given their peers' usual day (NaN: no
     * established peer), or empty when it is not.
     */
    Optional<String> judge(long today, long[] activeDays, double peersUsual) {
        if (today < minimum) {
            return Optional.empty();
        }
        double baseline;
        String against;
        if (established(activeDays)) {
            baseline = usual(activeDays);
            against = "their usual day " + number(baseline) + " (median of " + activeDays.length + " day(s) with reads)";
        } else if (!Double.isNaN(peersUsual)) {
            baseline = peersUsual;
            against = "their peers' usual day " + number(baseline) + " (only " + activeDays.length + " day(s) of their own, "
                    + historyDays + " needed)";
        } else {
            baseline = minimum;
            against = "the minimum " + minimum + ", for want of a baseline (no one has " + historyDays + " days of reads yet)";
        }
        if (today <= factor * baseline) {
            return Optional.empty();
        }
        return Optional.of(today + " distinct resources read: " + number(today / baseline) + "× " + against + "; flagged above "
                + number(factor) + "× and from " + minimum);
    }

    static double median(long[] values) {
        long[] v = values.clone();
        Arrays.sort(v);
        int n = v.length;
        return n == 0 ? 0 : n % 2 == 1 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2.0;
    }

    static double median(double[] values) {
        double[] v = values.clone();
        Arrays.sort(v);
        int n = v.length;
        return n == 0 ? Double.NaN : n % 2 == 1 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2.0;
    }

    private static String number(double d) {
        return d == Math.rint(d) ? Long.toString((long) d) : String.format(Locale.ROOT, "%.1f", d);
    }
}
