package dev.quaestor.bench.load;

import java.util.Map;
import java.util.TreeMap;
import org.HdrHistogram.Histogram;

/**
 * What one phase measured. Latencies in microseconds; in open loop they are measured from each
 * request's intended start, so queueing in the generator or the server is counted.
 *
 * @param sendLag how late each request got onto a connection after its intended start, microseconds (open loop)
 * @param fromWire each response's time from the moment its request had a connection, microseconds
 * @param cpu server, generator and whole-machine CPU in cores (1.0 = one core busy)
 */
public record LoadResult(String target, String mode, double seconds, long sent, long ok, Map<String, Long> errors,
        Histogram okLatency, Histogram allLatency, Histogram sendLag, Histogram fromWire, double[] cpu, long serverRssKib, Map<String, Double> serverThreads) {

    public double throughput() {
        return ok / seconds;
    }

    public long errorCount() {
        return errors.values().stream().mapToLong(Long::longValue).sum();
    }

    public double ms(double percentile) {
        return okLatency.getTotalCount() == 0 ? Double.NaN : okLatency.getValueAtPercentile(percentile) / 1000.0;
    }

    /** How late the generator sent requests after their intended start (open loop), in ms at a percentile. */
    double lagMs(double percentile) {
        return sendLag.getTotalCount() == 0 ? Double.NaN : sendLag.getValueAtPercentile(percentile) / 1000.0;
    }

    double maxMs() {
        return allLatency.getTotalCount() == 0 ? Double.NaN : allLatency.getMaxValue() / 1000.0;
    }

    /** Responses (of any kind) that took longer than this, from their intended start. */
    long slowerThan(long micros) {
        return allLatency.getTotalCount() - allLatency.getCountBetweenValues(0, micros);
    }

    /** Responses (of any kind) that took longer than this once their request had a connection. */
    long slowerFromWireThan(long micros) {
        return fromWire.getTotalCount() - fromWire.getCountBetweenValues(0, micros);
    }

    public String errorSummary() {
        return errors.isEmpty() ? "none" : new TreeMap<>(errors).toString();
    }
}
