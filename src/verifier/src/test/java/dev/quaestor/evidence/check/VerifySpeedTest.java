package dev.quaestor.evidence.check;

import dev.quaestor.evidence.fast.FastExportReader;
import dev.quaestor.evidence.TestLog;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/**
 * How fast an export is verified, printed rather than asserted (the figure depends on the machine and
 * what else runs on it): 300,000 records with a checkpoint every 1,000, as the server writes them by
 * default, read and checked three times in this JVM.
 */
class VerifySpeedTest {

    @Test
    void printsRecordsPerSecond() throws Exception {
        int n = 300_000;
        var log = new TestLog(LogVerifierTest.KEY, "replica-a").appendTo(n, 1000);
        byte[] export = TestLog.text(log.export()).getBytes(StandardCharsets.UTF_8);
        var os = (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        for (int run = 1; run <= 3; run++) {
            long cpu = os.getProcessCpuTime();
            long started = System.nanoTime();
            var verifier = new LogVerifier(LogVerifierTest.TRUST, null, false, false);
            FastExportReader.read(new ByteArrayInputStream(export), verifier);
            Report r = verifier.finish();
            double seconds = (System.nanoTime() - started) / 1e9;
            double cpuSeconds = (os.getProcessCpuTime() - cpu) / 1e9;
            assertTrue(r.ok(), r.toString());
            assertEquals(300, r.logs().get(0).checkpoints());
            System.out.printf("VerifySpeedTest: run %d: %,d records (%,d MB, 300 checkpoints) verified in %.2f s: %,.0f records/s"
                    + " (%.1f s of CPU, %d processors)%n", run, n, export.length >> 20, seconds, n / seconds, cpuSeconds,
                    Runtime.getRuntime().availableProcessors());
        }
    }
}
