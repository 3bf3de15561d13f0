package dev.quaestor.evidence;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * docs/audit.md ("Reading the verifier") tells an auditor how much code decides a verdict. Its counts are recounted
 * here, so the page stays true, and the checks stay short enough to read in one sitting.
 */
class ReadingListTest {

    private static final Path SOURCES = Path.of("src/main/java/dev/quaestor/evidence");
    private static final Path PAGE = Path.of("../../docs/audit.md");
    private static final List<String> COMMAND_LINE = List.of("Main", "Args", "VerifyCommand", "ReportJson", "CheckCommand",
            "ConsistencyCommand", "RecordWords", "UsageError");
    private static final int MOST_CHECK_LINES = 2_000;

    @Test
    void theChecksAreUnderTwoThousandLinesAndThePageSaysHowMany() throws IOException {
        List<Path> checks = javaFiles(SOURCES.resolve("check"));
        List<Path> format = javaFiles(SOURCES);
        List<Path> cli = COMMAND_LINE.stream().map(n -> SOURCES.resolve("cli/" + n + ".java")).toList();
        long checkLines = lines(checks);
        String page = Files.readString(PAGE);

        assertTrue(checkLines < MOST_CHECK_LINES, "check/ is " + checkLines + " lines; the checks are meant to be fewer than "
                + MOST_CHECK_LINES + ": split or simplify before adding");
        assertStated(page, "(`check/`, " + checks.size() + " files, **" + n(checkLines) + " lines**)");
        assertStated(page, "(`evidence/`, " + n(lines(format)) + " lines)");
        assertStated(page, "(`cli/`, " + n(lines(cli)) + " lines)");
        List<Path> all = Stream.of(checks, format, cli).flatMap(List::stream).toList();
        assertStated(page, "the " + all.size() + " files below: " + n(lines(all)) + " lines (" + n(code(all))
                + " neither blank nor comment)");
    }

    private static void assertStated(String page, String text) {
        assertTrue(page.replaceAll("\\s+", " ").contains(text),
                "docs/audit.md (Reading the verifier) should say " + text + "; update the page to the count");
    }

    private static List<Path> javaFiles(Path dir) throws IOException {
        try (Stream<Path> s = Files.list(dir)) {
            return s.filter(p -> p.toString().endsWith(".java")).sorted().toList();
        }
    }

    private static long lines(List<Path> files) throws IOException {
        long n = 0;
        for (Path p : files) {
            n += Files.readAllLines(p).size();
        }
        return n;
    }

    /** Lines neither blank nor comment: those that start with {@code //}, {@code /*} or {@code *} are comment. */
    private static long code(List<Path> files) throws IOException {
        long n = 0;
        for (Path p : files) {
            n += Files.readAllLines(p).stream().map(String::strip)
                    .filter(l -> !l.isEmpty() && !l.startsWith("//") && !l.startsWith("/*") && !l.startsWith("*")).count();
        }
        return n;
    }

    private static String n(long v) {
        return String.format(Locale.ROOT, "%,d", v);
    }
}
