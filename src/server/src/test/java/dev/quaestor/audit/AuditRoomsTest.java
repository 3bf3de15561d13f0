package dev.quaestor.audit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The audit log's rooms, read from their sources: each room says what it holds, no room names the face at the top,
 * the rooms depend on each other without a cycle, and no file at the top is over 400 lines.
 */
class AuditRoomsTest {

    private static final Path TOP = Path.of("src", "main", "java", "dev", "quaestor", "audit");
    private static final String PACKAGE = "dev.quaestor.audit";
    private static final Pattern REFERENCE = Pattern.compile("\\bdev\\.quaestor\\.audit((?:\\.[a-z]\\w*)*)\\.([A-Z]\\w*)");
    private static final Pattern COMMENT = Pattern.compile("/\\*.*?\\*/|//[^\\n]*", Pattern.DOTALL);

    @Test
    void everyRoomSaysWhatItHolds() throws IOException {
        List<Path> rooms = rooms();
        assertTrue(rooms.size() >= 4, "rooms: " + rooms);
        for (Path room : rooms) {
            assertTrue(Files.exists(room.resolve("package-info.java")), room + " has a package-info.java");
        }
    }

    @Test
    void noRoomNamesTheTopAndNoRoomsFormACycle() throws IOException {
        Map<String, Set<String>> arrows = arrows();
        var up = new ArrayList<String>();
        arrows.forEach((from, to) -> {
            if (!from.equals(PACKAGE) && to.contains(PACKAGE)) {
                up.add(from);
            }
        });
        assertEquals(List.of(), up, "rooms with an arrow back up to " + PACKAGE);
        assertEquals(List.of(), cycles(arrows), "cycles among the rooms: " + arrows);
    }

    @Test
    void noFileAtTheTopIsLong() throws IOException {
        try (Stream<Path> files = Files.list(TOP)) {
            for (Path f : files.filter(p -> p.toString().endsWith(".java")).toList()) {
                long lines = Files.readAllLines(f).size();
                assertTrue(lines <= 400, f + " has " + lines + " lines");
            }
        }
    }

    private static List<Path> rooms() throws IOException {
        try (Stream<Path> dirs = Files.list(TOP)) {
            return dirs.filter(Files::isDirectory).sorted().toList();
        }
    }

    /** Each package of the audit log, and the packages of the audit log its code names (comments aside). */
    private static Map<String, Set<String>> arrows() throws IOException {
        Map<String, Set<String>> arrows = new TreeMap<>();
        try (Stream<Path> files = Files.walk(TOP)) {
            for (Path f : files.filter(p -> p.toString().endsWith(".java")).toList()) {
                String from = packageOf(f);
                Set<String> to = arrows.computeIfAbsent(from, k -> new TreeSet<>());
                Matcher m = REFERENCE.matcher(COMMENT.matcher(Files.readString(f)).replaceAll(""));
                while (m.find()) {
                    String target = PACKAGE + m.group(1);
                    if (!target.equals(from)) {
                        to.add(target);
                    }
                }
            }
        }
        assertTrue(arrows.containsKey(PACKAGE) && arrows.size() > 1, "read the audit sources from " + TOP.toAbsolutePath());
        return arrows;
    }

    private static String packageOf(Path file) {
        Path dir = TOP.relativize(file.getParent());
        return dir.toString().isEmpty() ? PACKAGE : PACKAGE + "." + dir.toString().replace(file.getFileSystem().getSeparator(), ".");
    }

    private static List<List<String>> cycles(Map<String, Set<String>> arrows) {
        var cycles = new ArrayList<List<String>>();
        var done = new TreeSet<String>();
        for (String start : arrows.keySet()) {
            walk(start, arrows, new ArrayList<>(), done, cycles);
        }
        return cycles;
    }

    private static void walk(String at, Map<String, Set<String>> arrows, List<String> path, Set<String> done,
            List<List<String>> cycles) {
        int seen = path.indexOf(at);
        if (seen >= 0) {
            var cycle = new ArrayList<>(path.subList(seen, path.size()));
            cycle.add(at);
            cycles.add(cycle);
            return;
        }
        if (done.contains(at)) {
            return;
        }
        path.add(at);
        for (String next : arrows.getOrDefault(at, Set.of())) {
            walk(next, arrows, path, done, cycles);
        }
        path.remove(path.size() - 1);
        done.add(at);
    }
}
