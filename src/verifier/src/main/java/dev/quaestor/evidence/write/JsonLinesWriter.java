package dev.quaestor.evidence.write;

import java.io.IOException;
import java.util.Map;

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

    /** One line: {@code fields} in their iteration order, null values left out. */
    public void write(Map<String, ?> fields) throws IOException {
        line.setLength(0);
        FlatJsonWriter.write(fields, line);
        line.append('\n');
        out.append(line);
    }
}
