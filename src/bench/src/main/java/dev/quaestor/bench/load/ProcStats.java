package dev.quaestor.bench.load;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * CPU time and resident memory of a process, and the whole machine's busy time, from /proc (Linux).
 * CPU figures are in clock ticks of 10 ms ({@code getconf CLK_TCK} is 100 on Linux/x86-64).
 */
public final class ProcStats {

    public static final double TICK_SECONDS = 0.01;

    private ProcStats() {
    }

    /** utime + stime of the process, in ticks. */
    public static long cpuTicks(long pid) {
        String stat = read(Path.of("/proc", Long.toString(pid), "stat"));
        // The command name (field 2) may hold spaces; fields after it are counted from its ')'.
        String[] f = stat.substring(stat.lastIndexOf(')') + 2).trim().split("\\s+");
        return Long.parseLong(f[11]) + Long.parseLong(f[12]);
    }

    /** VmRSS in KiB. */
    public static long rssKib(long pid) {
        for (String line : read(Path.of("/proc", Long.toString(pid), "status")).split("\n")) {
            if (line.startsWith("VmRSS:")) {
                return Long.parseLong(line.replaceAll("[^0-9]", ""));
            }
        }
        throw new IllegalStateException("no VmRSS for " + pid);
    }

    /**
     * utime + stime of every live process with this command name (PostgreSQL's backends: "postgres"), in ticks. A
     * process that exits between two readings takes its ticks with it, so compare readings over a phase whose
     * processes live through it (a server's pooled connections do).
     */
    public static long commandTicks(String command) {
        long total = 0;
        try (var procs = Files.list(Path.of("/proc"))) {
            for (Path p : (Iterable<Path>) procs::iterator) {
                if (!p.getFileName().toString().chars().allMatch(Character::isDigit)) {
                    continue;
                }
                String stat;
                try {
                    stat = Files.readString(p.resolve("stat"));
                } catch (IOException gone) {
                    continue;
                }
                if (stat.substring(stat.indexOf('(') + 1, stat.lastIndexOf(')')).equals(command)) {
                    String[] f = stat.substring(stat.lastIndexOf(')') + 2).trim().split("\\s+");
                    total += Long.parseLong(f[11]) + Long.parseLong(f[12]);
                }
            }
        } catch (IOException e) {
            throw new IllegalStateException("cannot list /proc", e);
        }
        return total;
    }

    /** Ticks all CPUs spent on anything but idle and I/O wait, since boot. */
    public static long machineBusyTicks() {
        String[] f = read(Path.of("/proc/stat")).lines().findFirst().orElseThrow().trim().split("\\s+");
        long total = 0;
        for (int i = 1; i <= 8 && i < f.length; i++) {
            total += Long.parseLong(f[i]);
        }
        return total - Long.parseLong(f[4]) - Long.parseLong(f[5]);
    }

    /**
     * utime + stime of each thread of the process, summed by thread name with its trailing number
     * taken off ({@code vert.x-eventloop-thread-1} and {@code -0} count together), in ticks.
     */
    public static java.util.Map<String, Long> threadTicks(long pid) {
        var out = new java.util.TreeMap<String, Long>();
        try (var tasks = Files.list(Path.of("/proc", Long.toString(pid), "task"))) {
            for (Path t : (Iterable<Path>) tasks::iterator) {
                String stat;
                try {
                    stat = Files.readString(t.resolve("stat"));
                } catch (IOException gone) {
                    continue; // the thread ended between the listing and the read
                }
                String name = stat.substring(stat.indexOf('(') + 1, stat.lastIndexOf(')')).replaceAll("[-# ]?\\d+$", "");
                String[] f = stat.substring(stat.lastIndexOf(')') + 2).trim().split("\\s+");
                out.merge(name, Long.parseLong(f[11]) + Long.parseLong(f[12]), Long::sum);
            }
        } catch (IOException e) {
            throw new IllegalStateException("cannot list the threads of " + pid, e);
        }
        return out;
    }

    static int cpus() {
        return Runtime.getRuntime().availableProcessors();
    }

    private static String read(Path p) {
        try {
            return Files.readString(p);
        } catch (IOException e) {
            throw new IllegalStateException("cannot read " + p + " (Linux /proc is needed)", e);
        }
    }

    /** CPU used by the server, this generator and the machine between two points in time. */
    record Window(long serverPid, long t0, long server0, long self0, long machine0, java.util.Map<String, Long> threads0) {

        static Window open(long serverPid) {
            return new Window(serverPid, System.nanoTime(), cpuTicks(serverPid), cpuTicks(ProcessHandle.current().pid()),
                    machineBusyTicks(), threadTicks(serverPid));
        }

        /** The server's CPU by thread name since {@link #open}, in cores (threads that ended are left out). */
        java.util.Map<String, Double> threadCores() {
            double wall = (System.nanoTime() - t0) / 1e9;
            var out = new java.util.HashMap<String, Double>();
            threadTicks(serverPid).forEach((name, ticks) -> out.put(name, (ticks - threads0.getOrDefault(name, 0L)) * TICK_SECONDS / wall));
            return out;
        }

        /** Seconds of CPU per second of wall time (1.0 = one core busy): server, generator, machine. */
        double[] close() {
            double wall = (System.nanoTime() - t0) / 1e9;
            return new double[] {
                (cpuTicks(serverPid) - server0) * TICK_SECONDS / wall,
                (cpuTicks(ProcessHandle.current().pid()) - self0) * TICK_SECONDS / wall,
                (machineBusyTicks() - machine0) * TICK_SECONDS / wall};
        }
    }
}
