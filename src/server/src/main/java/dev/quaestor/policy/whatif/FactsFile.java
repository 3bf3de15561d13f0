package dev.quaestor.policy.whatif;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectReader;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.time.Instant;
import java.util.List;
import java.util.function.Consumer;
import java.util.stream.IntStream;

/**
 * The facts export: JSON Lines, a header line then one line per distinct fact ({@link Fact} without request ids),
 * each with the number of requests it stands for. What an auditor hands to CI, so that a pipeline never holds audit
 * credentials. Read strictly: a line that is not a JSON object, an unknown key, a missing field, an action or decision
 * no record holds, or a count below one names its line and stops.
 *
 * <pre>
 * {"format":"quaestor-facts/1","from":"2026-10-30T00:00:00Z","to":"2026-11-29T00:00:00Z"}
 * {"subject":"alice","roles":["principal-investigator"],"action":"read","uri":"file:///docs/trials/onco-734/summary.md",
 *  "ip":"10.1.2.3","hour":"2026-11-02T09:00:00Z","revision":"9f…","decision":"ALLOW","count":14}
 * </pre>
 */
public final class FactsFile {

    public static final String FORMAT = "quaestor-facts/1";

    /** The window the export covers, from its header. */
    public record Header(String format, Instant from, Instant to) {
    }

    /** A line that is not a fact: its number and what is wrong. */
    public static final class BadFacts extends RuntimeException {
        public BadFacts(String message) {
            super(message);
        }
    }

    /** The values a record's {@code action} and {@code decision} take (docs/audit-format.md). */
    static final List<String> ACTIONS = List.of("list", "read", "subscribe");
    static final List<String> DECISIONS = List.of("ALLOW", "DENY", "FILTER");

    private static final ObjectMapper JSON = new ObjectMapper().registerModule(new JavaTimeModule())
            .disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS)
            .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .enable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES)
            .setSerializationInclusion(JsonInclude.Include.NON_EMPTY);
    private static final ObjectReader HEADER = JSON.readerFor(Header.class);

    private FactsFile() {
    }

    /** Reads the header, then hands each fact to {@code out}; returns the header. */
    public static Header read(BufferedReader in, Consumer<Fact> out) {
        try {
            String first = in.readLine();
            if (first == null) {
                throw new BadFacts("line 1: empty file (a facts export begins with its header)");
            }
            Header h;
            try {
                h = HEADER.readValue(first);
            } catch (JsonProcessingException e) {
                throw new BadFacts("line 1: not a facts export header: " + e.getOriginalMessage());
            }
            if (!FORMAT.equals(h.format())) {
                throw new BadFacts("line 1: format must be " + FORMAT + ", not " + h.format());
            }
            // Lines are parsed on every core; the first bad one, in file order, is the one named.
            List<String> lines = in.lines().toList();
            Object[] parsed = new Object[lines.size()];
            IntStream.range(0, lines.size()).parallel().forEach(i -> parsed[i] = parse(i + 2, lines.get(i)));
            for (Object o : parsed) {
                if (o instanceof BadFacts bad) {
                    throw bad;
                }
                if (o != null) {
                    out.accept((Fact) o);
                }
            }
            return h;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The fact on line {@code n}, null for a blank line, or what is wrong with it. */
    private static Object parse(long n, String line) {
        if (line.isBlank()) {
            return null;
        }
        Fact f;
        try {
            f = fact(line);
        } catch (JsonProcessingException e) {
            return new BadFacts("line " + n + ": not a JSON object (" + e.getOriginalMessage() + ")");
        } catch (IOException | java.time.DateTimeException | BadFacts e) {
            return new BadFacts("line " + n + ": " + e.getMessage());
        }
        if (f.action() == null || f.decision() == null) {
            return new BadFacts("line " + n + ": missing " + (f.action() == null ? "action" : "decision"));
        }
        if (!ACTIONS.contains(f.action())) {
            return new BadFacts("line " + n + ": action '" + f.action() + "' is not one of " + String.join(", ", ACTIONS));
        }
        if (!DECISIONS.contains(f.decision())) {
            return new BadFacts("line " + n + ": decision '" + f.decision() + "' is not one of " + String.join(", ", DECISIONS));
        }
        String missing = f.uri() == null && !f.listing() ? "uri" : f.hour() == null ? "hour" : null;
        if (missing != null) {
            return new BadFacts("line " + n + ": missing " + missing);
        }
        if (f.count() < 1) {
            return new BadFacts("line " + n + ": count must be at least 1");
        }
        return f;
    }

    /**
     * One line read token by token (a million-fact export is read in a fresh JVM by every pull request, and this
     * costs a fraction of binding the line to the record reflectively): exactly one object of known keys.
     */
    /** A fact's keys, as the export writes them. */
    private static final List<String> KEYS = List.of("subject", "client", "tenant", "roles", "action", "uri", "ip", "hour",
            "revision", "decision", "count", "examples");

    private static Fact fact(String line) throws IOException {
        try (JsonParser p = JSON.getFactory().createParser(line)) {
            if (p.nextToken() != JsonToken.START_OBJECT) {
                throw new BadFacts("not a JSON object (a fact is one JSON object per line)");
            }
            String subject = null, client = null, tenant = null, action = null, uri = null, ip = null, revision = null,
                    decision = null;
            Instant hour = null;
            long count = 0;
            List<String> roles = List.of();
            List<String> examples = List.of();
            var seen = new java.util.HashSet<String>();
            for (JsonToken t = p.nextToken(); t != JsonToken.END_OBJECT; t = p.nextToken()) {
                String key = p.currentName();
                if (!seen.add(key)) {
                    throw new BadFacts("key '" + key + "' given twice");
                }
                JsonToken v = p.nextToken();
                switch (key) {
                    case "subject" -> subject = text(p, v, key);
                    case "client" -> client = text(p, v, key);
                    case "tenant" -> tenant = text(p, v, key);
                    case "action" -> action = text(p, v, key);
                    case "uri" -> uri = text(p, v, key);
                    case "ip" -> ip = text(p, v, key);
                    case "revision" -> revision = text(p, v, key);
                    case "decision" -> decision = text(p, v, key);
                    case "hour" -> hour = v == JsonToken.VALUE_NULL ? null : instant(text(p, v, key));
                    case "count" -> {
                        if (v != JsonToken.VALUE_NUMBER_INT) {
                            throw new BadFacts("count must be a whole number");
                        }
                        count = p.getLongValue();
                    }
                    case "roles" -> roles = strings(p, v, key);
                    case "examples" -> examples = strings(p, v, key);
                    default -> throw new BadFacts("unknown key '" + key + "'; a fact's keys are " + String.join(", ", KEYS));
                }
            }
            if (p.nextToken() != null) {
                throw new BadFacts("more than one JSON value on the line");
            }
            return new Fact(subject, client, tenant, roles, action, uri, ip, hour, revision, decision, count, examples);
        }
    }

    private static Instant instant(String s) {
        try {
            return Instant.parse(s);
        } catch (java.time.format.DateTimeParseException e) {
            throw new BadFacts("hour must be an ISO-8601 instant such as 2026-11-02T09:00:00Z, not '" + s + "'");
        }
    }

    private static String text(JsonParser p, JsonToken v, String key) throws IOException {
        if (v == JsonToken.VALUE_NULL) {
            return null;
        }
        if (v != JsonToken.VALUE_STRING) {
            throw new BadFacts(key + " must be a string");
        }
        return p.getText();
    }

    private static List<String> strings(JsonParser p, JsonToken v, String key) throws IOException {
        if (v != JsonToken.START_ARRAY) {
            throw new BadFacts(key + " must be a list of strings");
        }
        var out = new java.util.ArrayList<String>(2);
        for (JsonToken t = p.nextToken(); t != JsonToken.END_ARRAY; t = p.nextToken()) {
            if (t != JsonToken.VALUE_STRING) {
                throw new BadFacts(key + " must be a list of strings");
            }
            out.add(p.getText());
        }
        return out;
    }

    public static void writeHeader(Writer out, Instant from, Instant to) throws IOException {
        out.write(JSON.writeValueAsString(new Header(FORMAT, from, to)));
        out.write('\n');
    }

    /** One fact's line, without its request ids. */
    public static void write(Writer out, Fact f) throws IOException {
        out.write(JSON.writeValueAsString(f.withoutExamples()));
        out.write('\n');
    }
}
