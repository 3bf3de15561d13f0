package dev.quaestor.evidence.write;

import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * Writes JSON Lines: each call one flat object ({@link FlatJsonWriter}) on one line, ended by {@code \n}. The evidence
 * export and the server's exports of a search both write their lines here.
 */
public final class JsonLinesWriter {

    private final Appendable out;
    private final StringBuilder line = new StringBuilder(1024);

    public JsonLinesWriter(Appendable out) {
        this.out = out;
    }

    /**
     * One line: {@code "type"} first if given, then each of {@code names} with its value ({@code valueOf}), in that
     * order, null values left out.
     */
    public void write(String type, List<String> names, Function<String, String> valueOf) throws IOException {
        line.setLength(0);
        line.append('{');
        boolean first = true;
        if (type != null) {
            FlatJsonWriter.string("type", line);
            line.append(':');
            FlatJsonWriter.string(type, line);
            first = false;
        }
        for (String name : names) {
            String value = valueOf.apply(name);
            if (value != null) {
                if (!first) {
                    line.append(',');
                }
                first = false;
                FlatJsonWriter.string(name, line);
                line.append(':');
                FlatJsonWriter.string(value, line);
            }
        }
        line.append("}\n");
        out.append(line);
    }

    /** One line: {@code fields} in their iteration order, null values left out. */
    public void write(Map<String, ?> fields) throws IOException {
        line.setLength(0);
        FlatJsonWriter.write(fields, line);
        line.append('\n');
        out.append(line);
    }
}
