package dev.quaestor.policy.history;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * What changed between two revisions, file by file, as lines kept, removed and added. Common leading and
 * trailing lines are matched first; what is left between them is matched by longest common subsequence when
 * it is small enough, and otherwise shown as removed then added.
 */
public final class RevisionDiff {

    /** One line of a file's diff: {@code ' '} kept, {@code '-'} removed, {@code '+'} added. */
    public record Line(char op, int oldNo, int newNo, String text) {
        public String css() {
            return op == '+' ? "add" : op == '-' ? "del" : "same";
        }
    }

    /** A file's diff; {@code status} is {@code added}, {@code removed}, {@code changed} or {@code unchanged}. */
    public record FileDiff(String name, String status, List<Line> lines) {
        public boolean changed() {
            return !status.equals("unchanged");
        }
    }

    /** Cells of the subsequence table above which the middle of a file is shown as replaced. */
    private static final long MAX_CELLS = 4_000_000;
    /** Unchanged lines shown around each change. */
    private static final int CONTEXT = 3;

    private RevisionDiff() {
    }

    public static List<FileDiff> of(Map<String, String> before, Map<String, String> after) {
        var names = new TreeSet<String>();
        names.addAll(before.keySet());
        names.addAll(after.keySet());
        var out = new ArrayList<FileDiff>();
        for (String name : names) {
            String a = before.get(name);
            String b = after.get(name);
            String status = a == null ? "added" : b == null ? "removed" : a.equals(b) ? "unchanged" : "changed";
            out.add(new FileDiff(name, status, status.equals("unchanged") ? List.of() : trimContext(lines(split(a), split(b)))));
        }
        return out;
    }

    static String[] split(String text) {
        if (text == null || text.isEmpty()) {
            return new String[0];
        }
        return (text.endsWith("\n") ? text.substring(0, text.length() - 1) : text).split("\n", -1);
    }

    static List<Line> lines(String[] a, String[] b) {
        int start = 0;
        while (start < a.length && start < b.length && a[start].equals(b[start])) {
            start++;
        }
        int endA = a.length;
        int endB = b.length;
        while (endA > start && endB > start && a[endA - 1].equals(b[endB - 1])) {
            endA--;
            endB--;
        }
        var out = new ArrayList<Line>();
        for (int i = 0; i < start; i++) {
            out.add(new Line(' ', i + 1, i + 1, a[i]));
        }
        int n = endA - start;
        int m = endB - start;
        if ((long) n * m <= MAX_CELLS) {
            int[][] lcs = new int[n + 1][m + 1];
            for (int i = n - 1; i >= 0; i--) {
                for (int j = m - 1; j >= 0; j--) {
                    lcs[i][j] = a[start + i].equals(b[start + j]) ? lcs[i + 1][j + 1] + 1 : Math.max(lcs[i + 1][j], lcs[i][j + 1]);
                }
            }
            int i = 0;
            int j = 0;
            while (i < n || j < m) {
                if (i < n && j < m && a[start + i].equals(b[start + j])) {
                    out.add(new Line(' ', start + i + 1, start + j + 1, a[start + i]));
                    i++;
                    j++;
                } else if (j < m && (i == n || lcs[i][j + 1] >= lcs[i + 1][j])) {
                    out.add(new Line('+', 0, start + j + 1, b[start + j]));
                    j++;
                } else {
                    out.add(new Line('-', start + i + 1, 0, a[start + i]));
                    i++;
                }
            }
        } else {
            for (int i = start; i < endA; i++) {
                out.add(new Line('-', i + 1, 0, a[i]));
            }
            for (int j = start; j < endB; j++) {
                out.add(new Line('+', 0, j + 1, b[j]));
            }
        }
        for (int i = endA, j = endB; i < a.length; i++, j++) {
            out.add(new Line(' ', i + 1, j + 1, a[i]));
        }
        return out;
    }

    /** Keeps changed lines and {@value #CONTEXT} unchanged lines around each; a gap is marked by a line "…". */
    static List<Line> trimContext(List<Line> all) {
        var keep = new boolean[all.size()];
        for (int k = 0; k < all.size(); k++) {
            if (all.get(k).op() != ' ') {
                for (int c = Math.max(0, k - CONTEXT); c <= Math.min(all.size() - 1, k + CONTEXT); c++) {
                    keep[c] = true;
                }
            }
        }
        var out = new ArrayList<Line>();
        boolean gap = false;
        for (int k = 0; k < all.size(); k++) {
            if (keep[k]) {
                if (gap && !out.isEmpty()) {
                    out.add(new Line(' ', 0, 0, "…"));
                }
                gap = false;
                out.add(all.get(k));
            } else {
                gap = true;
            }
        }
        return out;
    }
}
