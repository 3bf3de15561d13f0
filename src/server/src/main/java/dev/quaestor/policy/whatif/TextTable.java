package dev.quaestor.policy.whatif;

import java.util.ArrayList;
import java.util.List;

/**
 * A table for a terminal: each column as wide as its widest cell, so that a long rule id or URI moves the columns
 * after it on every row alike instead of pushing one row out of line. Numbers are right-aligned; the last column is
 * left ragged: no line ends in blanks.
 */
final class TextTable {

    private final String[] headers;
    private final boolean[] numeric;
    private final List<String[]> rows = new ArrayList<>();

    /** Headers of the columns; one that starts with {@code #} (left out of the header) holds numbers. */
    TextTable(String... headers) {
        this.headers = new String[headers.length];
        this.numeric = new boolean[headers.length];
        for (int i = 0; i < headers.length; i++) {
            numeric[i] = headers[i].startsWith("#");
            this.headers[i] = numeric[i] ? headers[i].substring(1) : headers[i];
        }
    }

    TextTable row(Object... cells) {
        if (cells.length != headers.length) {
            throw new IllegalArgumentException(cells.length + " cells for " + headers.length + " columns");
        }
        String[] row = new String[cells.length];
        for (int i = 0; i < cells.length; i++) {
            row[i] = String.valueOf(cells[i]);
        }
        rows.add(row);
        return this;
    }

    /** The header and the rows, each line indented by two spaces, columns two spaces apart. */
    void appendTo(StringBuilder out) {
        int[] width = new int[headers.length];
        for (int i = 0; i < headers.length; i++) {
            width[i] = headers[i].length();
            for (String[] r : rows) {
                width[i] = Math.max(width[i], r[i].length());
            }
        }
        line(out, headers, width);
        rows.forEach(r -> line(out, r, width));
    }

    private void line(StringBuilder out, String[] cells, int[] width) {
        var line = new StringBuilder("  ");
        for (int i = 0; i < cells.length; i++) {
            String pad = " ".repeat(width[i] - cells[i].length());
            line.append(numeric[i] ? pad + cells[i] : cells[i] + pad).append("  ");
        }
        out.append(line.toString().stripTrailing()).append('\n');
    }
}
