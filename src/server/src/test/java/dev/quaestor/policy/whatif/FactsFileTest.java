package dev.quaestor.policy.whatif;

import java.io.BufferedReader;
import java.io.StringReader;
import java.io.StringWriter;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** The facts export's lines: written and read back alike, and anything else refused naming its line. */
class FactsFileTest {

    private static final String HEADER = "{\"format\":\"quaestor-facts/1\",\"from\":\"2026-11-01T00:00:00Z\",\"to\":\"2026-11-02T00:00:00Z\"}\n";
    private static final String GOOD = "{\"subject\":\"alice\",\"roles\":[\"staff\"],\"action\":\"read\",\"uri\":\"file:///a\","
            + "\"hour\":\"2026-11-01T09:00:00Z\",\"decision\":\"DENY\",\"count\":2}";

    private static List<Fact> read(String text) {
        var out = new ArrayList<Fact>();
        FactsFile.read(new BufferedReader(new StringReader(text)), out::add);
        return out;
    }

    private static String refusal(String line) {
        return assertThrows(FactsFile.BadFacts.class, () -> read(HEADER + GOOD + "\n" + line + "\n")).getMessage();
    }

    @Test
    void aWrittenFactReadsBackTheSameWithoutItsRequestIds() throws Exception {
        var f = new Fact("alice", "app", "acme", List.of("a", "b"), "read", "file:///a", "10.0.0.1",
                Instant.parse("2026-11-01T09:00:00Z"), "rev", "ALLOW", 7, List.of("r1"));
        var w = new StringWriter();
        FactsFile.writeHeader(w, Instant.parse("2026-11-01T00:00:00Z"), Instant.parse("2026-11-02T00:00:00Z"));
        FactsFile.write(w, f);
        assertEquals(List.of(f.withoutExamples()), read(w.toString()));
    }

    @Test
    void eachKindOfBadLineIsRefusedNamingItsLine() {
        assertEquals("line 3: count must be a whole number", refusal(GOOD.replace("\"count\":2", "\"count\":\"2\"")));
        assertEquals("line 3: key 'uri' given twice", refusal(GOOD.replace("}", ",\"uri\":\"file:///b\"}")));
        assertEquals("line 3: count must be at least 1", refusal(GOOD.replace("\"count\":2", "\"count\":0")));
        assertEquals("line 3: missing decision", refusal(GOOD.replace(",\"decision\":\"DENY\"", "")));
        assertEquals("line 3: roles must be a list of strings", refusal(GOOD.replace("[\"staff\"]", "\"staff\"")));
        assertEquals("line 3: more than one JSON value on the line", refusal(GOOD + " {}"));
        assertEquals("line 1: format must be quaestor-facts/1, not x", assertThrows(FactsFile.BadFacts.class,
                () -> read("{\"format\":\"x\"}\n")).getMessage());
    }
}
