package dev.quaestor.bench;

import dev.quaestor.bench.load.ProcStats;
import dev.quaestor.bench.load.Profiler;
import dev.quaestor.support.McpHttp;
import dev.quaestor.support.ServerProcess;
import dev.quaestor.support.TestPostgres;
import dev.quaestor.support.TestIssuer;
import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.sql.DriverManager;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Reads one large binary file (512 MiB by default) over MCP {@code resources/read} from a
 * production-mode server (PostgreSQL audit, signed tokens, policy, the packaged jar with -Xmx256m),
 * with a client that streams the response and decodes the base64 on the fly, and compares with curl
 * downloading the same file from the server's {@code GET /baseline/{path}} (same bearer check, no
 * policy, audit or MCP framing). Prints throughput of both, the ratio, the server's heap during the
 * MCP reads (sampled from {@code /q/metrics} {@code jvm_memory_used_bytes{area="heap"}} every 50 ms)
 * and checks the SHA-256 the client computed and the one in the OUTCOME audit record against the
 * file's. Run with bench/large-read.sh [MiB] [runs].
 */
public final class LargeReadBench {

    private static final String DB = "quaestor_bench_large";
    /** HTTP/1.1, as curl speaks to an http:// URL (the JDK client would otherwise upgrade to h2c; see README). */
    private static final HttpClient HTTP = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(2)).build();
    private static final byte[] BLOB_KEY = "\"blob\":\"".getBytes(StandardCharsets.US_ASCII);

    public static void main(String[] args) {
        BenchMain.runAndExit(LargeReadBench::run, args);
    }

    private static void run(String[] args) throws Exception {
        int mib = args.length > 0 ? Integer.parseInt(args[0]) : 512;
        int runs = args.length > 1 ? Integer.parseInt(args[1]) : 3;
        Path dir = Files.createDirectories(Path.of("target", "large-read").toAbsolutePath());
        Path file = dir.resolve("large.bin");
        String fileSha = createFile(file, mib);

        var env = ProdServerSetup.environment("large-read", DB, """
                apiVersion: quaestor/v1
                kind: Policy
                rules:
                  - id: bench-large-read
                    effect: allow
                    actions: [read]
                    resources: ["file:///bench/**"]
                    subjects: {subjects: ["*"]}
                """);
        env.put("QUAESTOR_MOUNTS_BENCH_PROVIDER", "filesystem");
        env.put("QUAESTOR_MOUNTS_BENCH_URI", "file:///bench/");
        env.put("QUAESTOR_MOUNTS_BENCH_ROOT", dir.toString());
        env.put("QUAESTOR_MOUNTS_BENCH_MAX_BYTES", Long.toString(4L << 30));
        env.put("QUAESTOR_MOUNTS_BENCH_TIMEOUT_MS", "30000");
        env.put("QUAESTOR_BASELINE_ENABLED", "true");
        env.put("QUAESTOR_BASELINE_ROOT", dir.toString());

        var jvm = new ArrayList<>(List.of("-Xmx256m"));
        String profile = System.getProperty("profile");
        if (profile != null) {
            jvm.add(Profiler.agentOption("large-read", profile, dir));
        }
        // Extra server JVM options, space-separated, e.g. -DserverOpts=-Dquarkus.rest.output-buffer-size=32768
        String extra = System.getProperty("serverOpts", "").trim();
        if (!extra.isEmpty()) {
            jvm.addAll(List.of(extra.split("\\s+")));
            System.out.println("extra server JVM options: " + extra);
        }
        try (var server = new ServerProcess("large-read-server", env, jvm)) {
            server.start();
            server.awaitReady(Duration.ofSeconds(90));
            String token = TestIssuer.tokenFor("bob");
            String scraper = TestIssuer.tokenFor("prometheus");
            String session = McpHttp.initialize(server.url(), token);
            System.out.printf("file %d MiB (sha256 %s), server -Xmx256m, %d measured runs after one warm-up each%n",
                    mib, fileSha.substring(0, 16) + "…", runs);

            // Warm-up (JIT, connection pools), not measured.
            mcpRead(server.url(), token, session, fileSha);
            curl(server.url(), token, (long) mib << 20);
            for (int i = 0; i < 3; i++) {
                // The curl-as-client path runs in half a second: a few more so that the JIT is not still compiling it.
                curlMcp(server.url(), token, session, (long) mib << 20);
            }

            Heap before = heap(server.url(), scraper);
            long baseline = before.used();
            long retainedBaseline = before.retained();
            var samples = new ArrayList<Long>();
            var retained = new ArrayList<Long>();
            var sampling = new AtomicBoolean(true);
            Thread sampler = new Thread(() -> {
                while (sampling.get()) {
                    try {
                        Heap h = heap(server.url(), scraper);
                        synchronized (samples) {
                            samples.add(h.used());
                            retained.add(h.retained());
                        }
                        Thread.sleep(50);
                    } catch (Exception e) {
                        return;
                    }
                }
            }, "heap-sampler");
            var mcp = new double[runs];
            sampler.start();
            Instant since = Instant.now();
            for (int i = 0; i < runs; i++) {
                mcp[i] = mcpRead(server.url(), token, session, fileSha);
            }
            sampling.set(false);
            sampler.join();
            // curl from /baseline and the same MCP read with curl as the client (response to /dev/null): the
            // server's side alone, with the same client doing the same (nothing) with the bytes. They run in
            // pairs, in ABBA order, so that the machine's drift (the baseline alone moves by ±30% between
            // minutes here) falls on both sides of each pair's ratio. The content is checked through the
            // OUTCOME record below.
            var curl = new double[runs];
            var mcpCurl = new double[runs];
            var pairRatio = new double[runs];
            // CPU spent per read, to show where the ratio comes from: the server's, the whole machine's
            // (server, curl, kernel, PostgreSQL), and the server's by thread during the MCP reads.
            var cpu = new CpuTally(server.pid(), server.url(), scraper);
            // -DprofilePairs=cpu (or itimer, wall, alloc): async-profiler attached to the server for these
            // reads only (jcmd JVMTI.agent_load), per thread, into target/large-read/profile-pairs-EVENT.collapsed.
            String pairsEvent = System.getProperty("profilePairs");
            Path pairsProfile = dir.resolve("profile-pairs-" + pairsEvent + ".collapsed");
            if (pairsEvent != null) {
                Profiler.attach(server.pid(), dir, "start,event=" + pairsEvent + ",threads");
            }
            for (int i = 0; i < runs; i++) {
                if (i % 2 == 0) {
                    curl[i] = cpu.baseline(() -> curl(server.url(), token, (long) mib << 20));
                    mcpCurl[i] = cpu.mcp(() -> curlMcp(server.url(), token, session, (long) mib << 20));
                } else {
                    mcpCurl[i] = cpu.mcp(() -> curlMcp(server.url(), token, session, (long) mib << 20));
                    curl[i] = cpu.baseline(() -> curl(server.url(), token, (long) mib << 20));
                }
                pairRatio[i] = curl[i] / mcpCurl[i];
            }
            if (pairsEvent != null) {
                Profiler.attach(server.pid(), dir, "stop,collapsed,file=" + pairsProfile);
                System.out.println("profile of the curl pairs: " + pairsProfile);
            }
            String audited = auditedSha(since);

            long peak;
            long retainedPeak;
            synchronized (samples) {
                peak = samples.stream().mapToLong(Long::longValue).max().orElse(baseline);
                retainedPeak = retained.stream().mapToLong(Long::longValue).max().orElse(retainedBaseline);
            }
            double mcpMedian = median(mcp);
            double curlMedian = median(curl);
            System.out.printf("MCP resources/read over HTTP/1.1 (streamed, base64 decoded by the client): %s MiB/s, median %.1f MiB/s%n",
                    fmt(mcp), mcpMedian);
            System.out.printf("curl GET /baseline/large.bin (raw bytes, HTTP/1.1):                            %s MiB/s, median %.1f MiB/s%n",
                    fmt(curl), curlMedian);
            double mcpCurlMedian = median(mcpCurl);
            System.out.printf("curl POST /mcp resources/read (base64 JSON to /dev/null, HTTP/1.1):             %s MiB/s, median %.1f MiB/s%n",
                    fmt(mcpCurl), mcpCurlMedian);
            System.out.printf("curl / MCP throughput per pair (curl as the MCP client):        %s, median %.2fx%n",
                    fmt(pairRatio), median(pairRatio));
            System.out.printf("curl / MCP throughput: %.2fx with the decoding client, %.2fx with curl as the MCP client "
                    + "(ratio of medians; median of the pairs %.2fx; target <= 2x)%n",
                    curlMedian / mcpMedian, curlMedian / mcpCurlMedian, median(pairRatio));
            cpu.print(runs);
            System.out.printf("server heap used (jvm_memory_used_bytes{area=\"heap\"}, all pools, %d samples): "
                    + "before %.1f MiB, peak during MCP reads %.1f MiB, peak growth %.1f MiB (target < 64 MiB)%n",
                    samples.size(), baseline / 1048576.0, peak / 1048576.0, (peak - baseline) / 1048576.0);
            System.out.printf("server heap retained (the same without G1 Eden: survivors and old generation, what outlived a "
                    + "young collection): before %.1f MiB, peak %.1f MiB, peak growth %.1f MiB%n",
                    retainedBaseline / 1048576.0, retainedPeak / 1048576.0, (retainedPeak - retainedBaseline) / 1048576.0);
            System.out.printf("OUTCOME audit record of the last read: sha256 %s (%s the file's)%n",
                    audited.substring(0, 16) + "…", audited.equals(fileSha) ? "equals" : "DIFFERS FROM");
            if (!audited.equals(fileSha)) {
                throw new IllegalStateException("audited digest differs from the file's");
            }
        }
    }

    /** CPU time of the server and of the whole machine, summed over the baseline and over the MCP reads. */
    private static final class CpuTally {
        interface Read {
            double run() throws Exception;
        }

        private final long pid;
        private final String url;
        private final String token;
        private double allocatedMcp;
        private long serverBaseline;
        private long machineBaseline;
        private long serverMcp;
        private long machineMcp;
        private final java.util.Map<String, Long> threadsMcp = new java.util.TreeMap<>();

        CpuTally(long pid, String url, String token) {
            this.pid = pid;
            this.url = url;
            this.token = token;
        }

        double baseline(Read r) throws Exception {
            long s = ProcStats.cpuTicks(pid);
            long m = ProcStats.machineBusyTicks();
            double v = r.run();
            serverBaseline += ProcStats.cpuTicks(pid) - s;
            machineBaseline += ProcStats.machineBusyTicks() - m;
            return v;
        }

        double mcp(Read r) throws Exception {
            double a = allocated(url, token);
            var t = ProcStats.threadTicks(pid);
            long s = ProcStats.cpuTicks(pid);
            long m = ProcStats.machineBusyTicks();
            double v = r.run();
            serverMcp += ProcStats.cpuTicks(pid) - s;
            machineMcp += ProcStats.machineBusyTicks() - m;
            ProcStats.threadTicks(pid).forEach((name, ticks) -> threadsMcp.merge(name, ticks - t.getOrDefault(name, 0L), Long::sum));
            allocatedMcp += allocated(url, token) - a;
            return v;
        }

        void print(int runs) {
            double tick = ProcStats.TICK_SECONDS;
            System.out.printf("CPU per read (core-seconds, 10 ms ticks): baseline server %.3f, machine %.3f; "
                    + "MCP server %.3f, machine %.3f%n", serverBaseline * tick / runs, machineBaseline * tick / runs,
                    serverMcp * tick / runs, machineMcp * tick / runs);
            var busiest = threadsMcp.entrySet().stream().filter(e -> e.getValue() > 0)
                    .sorted(java.util.Map.Entry.<String, Long>comparingByValue().reversed())
                    .map(e -> String.format("%s %.3f", e.getKey(), e.getValue() * tick / runs)).toList();
            System.out.println("server CPU per MCP read by thread: " + String.join(", ", busiest));
            System.out.printf("server heap allocated per MCP read (jvm_gc_memory_allocated_bytes_total plus eden, garbage included): "
                    + "%.1f MiB%n", allocatedMcp / runs / 1048576.0);
        }
    }

    /** Writes {@code mib} MiB of pseudo-random bytes (reused if already there) and returns their SHA-256. */
    private static String createFile(Path file, int mib) throws Exception {
        var sha = MessageDigest.getInstance("SHA-256");
        var random = new SplittableRandom(512);
        byte[] chunk = new byte[1 << 20];
        boolean reuse = Files.exists(file) && Files.size(file) == ((long) mib << 20);
        try (OutputStream out = reuse ? OutputStream.nullOutputStream() : Files.newOutputStream(file)) {
            for (int i = 0; i < mib; i++) {
                for (int j = 0; j < chunk.length; j += 8) {
                    long v = random.nextLong();
                    for (int k = 0; k < 8; k++) {
                        chunk[j + k] = (byte) (v >>> (8 * k));
                    }
                }
                sha.update(chunk);
                out.write(chunk);
            }
        }
        return HexFormat.of().formatHex(sha.digest());
    }

    /**
     * One resources/read, the response streamed: the envelope up to {@code "blob":"} is skipped, the
     * value is base64-decoded as it arrives and hashed, and the response must end in {@code "}]}}}.
     * Returns MiB/s of decoded content.
     */
    private static double mcpRead(String url, String token, String session, String expectedSha) throws Exception {
        var req = HttpRequest.newBuilder(URI.create(url + "/mcp")).timeout(Duration.ofMinutes(10))
                .header("Authorization", "Bearer " + token).header("Mcp-Session-Id", session)
                .header("MCP-Protocol-Version", "2025-06-18").header("Content-Type", "application/json")
                .header("Accept", "application/json, text/event-stream")
                .POST(HttpRequest.BodyPublishers.ofString(
                        "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"resources/read\",\"params\":{\"uri\":\"file:///bench/large.bin\"}}"))
                .build();
        long start = System.nanoTime();
        HttpResponse<InputStream> res = HTTP.send(req, HttpResponse.BodyHandlers.ofInputStream());
        if (res.statusCode() != 200) {
            throw new IllegalStateException("read said " + res.statusCode() + ": " + new String(res.body().readNBytes(2000)));
        }
        var sha = MessageDigest.getInstance("SHA-256");
        long bytes = 0;
        try (var in = new BufferedInputStream(res.body(), 1 << 16)) {
            skipPast(in, BLOB_KEY);
            var value = new UntilQuote(in);
            // Decode whole 4-character groups as they arrive (the JDK's wrapping decoder reads byte by byte).
            var decoder = Base64.getDecoder();
            byte[] enc = new byte[1 << 16];
            byte[] dec = new byte[enc.length / 4 * 3];
            int held = 0;
            int n;
            while ((n = value.read(enc, held, enc.length - held)) > 0) {
                held += n;
                int whole = held - held % 4;
                if (whole > 0) {
                    int m = decoder.decode(whole == enc.length ? enc : Arrays.copyOf(enc, whole), dec);
                    sha.update(dec, 0, m);
                    bytes += m;
                    System.arraycopy(enc, whole, enc, 0, held - whole);
                    held -= whole;
                }
            }
            String tail = value.rest();
            if (held != 0 || !value.closed || !tail.equals("}]}}")) {
                throw new IllegalStateException("incomplete response (" + held + " characters left); tail '" + tail + "'");
            }
        }
        double seconds = (System.nanoTime() - start) / 1e9;
        String got = HexFormat.of().formatHex(sha.digest());
        if (!got.equals(expectedSha)) {
            throw new IllegalStateException("decoded content differs from the file: " + got);
        }
        return bytes / 1048576.0 / seconds;
    }

    private static void skipPast(InputStream in, byte[] marker) throws IOException {
        int matched = 0;
        for (int read = 0; matched < marker.length; read++) {
            int c = in.read();
            if (c < 0 || read > 4096) {
                throw new IllegalStateException("no blob in the response");
            }
            matched = c == marker[matched] ? matched + 1 : (c == marker[0] ? 1 : 0);
        }
    }

    /**
     * The characters of a JSON string value up to its closing quote (base64 has no escapes); what
     * follows the quote is kept for {@link #rest}.
     */
    private static final class UntilQuote extends InputStream {
        private final InputStream in;
        private final byte[] buf = new byte[1 << 16];
        private int pos;
        private int lim;
        boolean closed;

        UntilQuote(InputStream in) {
            this.in = in;
        }

        @Override
        public int read() throws IOException {
            byte[] one = new byte[1];
            return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            if (closed) {
                return -1;
            }
            if (pos == lim) {
                lim = in.read(buf, 0, buf.length);
                pos = 0;
                if (lim < 0) {
                    lim = 0;
                    return -1; // ended inside the value: reported as incomplete by the caller
                }
            }
            int n = Math.min(len, lim - pos);
            for (int i = 0; i < n; i++) {
                if (buf[pos + i] == '"') {
                    System.arraycopy(buf, pos, b, off, i);
                    pos += i + 1;
                    closed = true;
                    return i == 0 ? -1 : i;
                }
            }
            System.arraycopy(buf, pos, b, off, n);
            pos += n;
            return n;
        }

        /** Everything after the closing quote. */
        String rest() throws IOException {
            String held = new String(buf, pos, lim - pos, StandardCharsets.US_ASCII);
            return held + new String(in.readAllBytes(), StandardCharsets.US_ASCII);
        }
    }

    /** curl to /dev/null; returns MiB/s. */
    private static double curl(String url, String token, long expectedBytes) throws Exception {
        String[] parts = runCurl("%{http_code} %{size_download} %{time_total}",
                "-H", "Authorization: Bearer " + token, url + "/baseline/large.bin");
        long size = Long.parseLong(parts[1]);
        if (!parts[0].equals("200") || size != expectedBytes) {
            throw new IllegalStateException("curl: status " + parts[0] + ", " + size + " bytes, expected " + expectedBytes);
        }
        return size / 1048576.0 / Double.parseDouble(parts[2]);
    }

    /**
     * resources/read with curl as the client, the response discarded; returns MiB/s of content
     * ({@code contentBytes} over the time). The response must be at least the base64 length.
     */
    private static double curlMcp(String url, String token, String session, long contentBytes) throws Exception {
        String[] parts = runCurl("%{http_code} %{size_download} %{time_total}",
                "-H", "Authorization: Bearer " + token, "-H", "Mcp-Session-Id: " + session,
                "-H", "MCP-Protocol-Version: 2025-06-18", "-H", "Content-Type: application/json",
                "-H", "Accept: application/json, text/event-stream",
                "--data", "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"resources/read\",\"params\":{\"uri\":\"file:///bench/large.bin\"}}",
                url + "/mcp");
        long size = Long.parseLong(parts[1]);
        if (!parts[0].equals("200") || size < (contentBytes + 2) / 3 * 4) {
            throw new IllegalStateException("MCP read with curl: status " + parts[0] + ", " + size + " bytes");
        }
        return contentBytes / 1048576.0 / Double.parseDouble(parts[2]);
    }

    /** Runs curl with the response to /dev/null and returns the fields of its {@code -w} line. */
    private static String[] runCurl(String writeOut, String... args) throws Exception {
        var command = new ArrayList<>(List.of("curl", "-sS", "-o", "/dev/null", "-w", writeOut));
        command.addAll(List.of(args));
        var p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.US_ASCII).trim();
        if (p.waitFor() != 0) {
            throw new IllegalStateException("curl failed: " + out);
        }
        return out.split(" ");
    }

    /**
     * Heap used, from one /q/metrics scrape: over all pools, and over all but the young collector's eden
     * (which holds only what was allocated since the last young collection), i.e. what outlived one.
     */
    private record Heap(long used, long retained) {
    }

    private static Heap heap(String url, String token) throws Exception {
        long[] sums = new long[2];
        scrape(url, token).filter(l -> l.startsWith("jvm_memory_used_bytes{") && l.contains("area=\"heap\"")).forEach(l -> {
            long v = (long) value(l);
            sums[0] += v;
            if (!l.contains("Eden")) {
                sums[1] += v;
            }
        });
        return new Heap(sums[0], sums[1]);
    }

    /** The sample lines of /q/metrics (comments left out). */
    private static java.util.stream.Stream<String> scrape(String url, String token) throws Exception {
        var res = HTTP.send(HttpRequest.newBuilder(URI.create(url + "/q/metrics")).timeout(Duration.ofSeconds(5))
                .header("Authorization", "Bearer " + token).build(), HttpResponse.BodyHandlers.ofLines());
        if (res.statusCode() != 200) {
            throw new IllegalStateException("/q/metrics said " + res.statusCode());
        }
        return res.body().filter(l -> !l.startsWith("#"));
    }

    private static double value(String sampleLine) {
        return Double.parseDouble(sampleLine.substring(sampleLine.lastIndexOf(' ') + 1));
    }

    /**
     * Bytes the server's JVM has allocated on the heap since it started. Micrometer's
     * jvm_gc_memory_allocated_bytes_total only advances at young collections, so what is in eden now
     * (allocated since the last one) is added from the same scrape.
     */
    private static double allocated(String url, String token) throws Exception {
        return scrape(url, token).filter(l -> l.startsWith("jvm_gc_memory_allocated_bytes_total")
                || (l.startsWith("jvm_memory_used_bytes{") && l.contains("Eden"))).mapToDouble(LargeReadBench::value).sum();
    }

    private static String auditedSha(Instant since) throws Exception {
        try (var c = DriverManager.getConnection(TestPostgres.get().jdbcUrl(DB), "postgres", "");
                var s = c.prepareStatement("SELECT content_sha256 FROM audit_entry WHERE kind = 'OUTCOME' "
                        + "AND uri = 'file:///bench/large.bin' AND outcome = 'ok' ORDER BY id DESC LIMIT 1")) {
            var rs = s.executeQuery();
            if (!rs.next()) {
                throw new IllegalStateException("no OUTCOME record for the reads since " + since);
            }
            return rs.getString(1);
        }
    }

    private static double median(double[] v) {
        double[] s = v.clone();
        Arrays.sort(s);
        return s.length % 2 == 1 ? s[s.length / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
    }

    private static String fmt(double[] v) {
        List<String> out = new ArrayList<>();
        for (double d : v) {
            out.add(String.format(d < 10 ? "%.2f" : "%.1f", d));
        }
        return String.join(", ", out);
    }
}
