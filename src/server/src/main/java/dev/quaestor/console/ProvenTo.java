package dev.quaestor.console;

import dev.quaestor.evidence.Anchor;
import io.quarkus.qute.TemplateData;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;

/**
 * The checkpoint a request's records are proven to, read from its proof file (docs/audit-format.md, section 4): the
 * log's origin line, the tree size, the root hash, the note's extension lines (its {@code time} line: when the log's
 * key signed it), and whether the note carries an RFC 3161 time-stamp, that is a {@code — rfc3161-timestamp} line
 * holding a token among its signatures (section 3.1), for the page and its printout; the file itself holds the
 * inclusion paths and signatures.
 */
@TemplateData
public record ProvenTo(String origin, String size, String root, List<String> extensions, boolean timeStamped) {

    /** Each distinct checkpoint of the file's blocks, in the order they come. */
    static List<ProvenTo> of(String proofFile) {
        var out = new LinkedHashSet<ProvenTo>();
        if (proofFile == null) {
            return List.of();
        }
        for (String block : proofFile.split("(?m)^(?=c2sp\\.org/tlog-proof@v1$)")) {
            int blank = block.indexOf("\n\n");
            if (blank < 0) {
                continue;
            }
            String note = block.substring(blank + 2);
            String[] lines = note.split("\n", -1);
            if (lines.length < 3) {
                continue;
            }
            var extensions = new ArrayList<String>();
            for (int i = 3; i < lines.length && !lines[i].isEmpty(); i++) {
                extensions.add(lines[i]);
            }
            out.add(new ProvenTo(lines[0], lines[1], lines[2], List.copyOf(extensions), stamped(note.replaceAll("\n+$", "\n"))));
        }
        return List.copyOf(out);
    }

    /** Whether the note's signatures hold a time-stamp token; a line of that name that holds none is not one. */
    private static boolean stamped(String note) {
        try {
            return Anchor.find(note) != null;
        } catch (IllegalArgumentException e) {
            return false;
        }
    }
}
