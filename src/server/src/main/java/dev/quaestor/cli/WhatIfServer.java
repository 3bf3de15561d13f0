package dev.quaestor.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.quaestor.policy.PolicySet;
import dev.quaestor.policy.whatif.ReportJson;
import dev.quaestor.policy.whatif.WhatIfReport;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The running server as what-if's history: the proposed files sent to {@code POST /admin/policy/what-if}. */
final class WhatIfServer {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Duration TIMEOUT = Duration.ofMinutes(5);

    /** The server refused the proposed set, with its errors. */
    static final class Rejected extends RuntimeException {
        private final List<String> errors;

        Rejected(List<String> errors) {
            super("rejected");
            this.errors = errors;
        }

        List<String> errors() {
            return errors;
        }
    }

    /** The server did not answer with a report. */
    static final class Failed extends RuntimeException {
        Failed(String message) {
            super(message);
        }
    }

    private final URI endpoint;
    private final String token;

    WhatIfServer(String server, String token) {
        this.endpoint = URI.create(server.replaceAll("/+$", "") + "/admin/policy/what-if");
        this.token = token;
    }

    WhatIfReport ask(PolicySet proposed, Map<String, String> o, int examples, int depth) throws IOException {
        var files = new LinkedHashMap<String, String>();
        proposed.sources().forEach(f -> files.put(f.getKey(), f.getValue()));
        var body = new LinkedHashMap<String, Object>();
        body.put("files", files);
        for (String k : List.of("since", "from", "to")) {
            if (o.get(k) != null) {
                body.put(k, o.get(k));
            }
        }
        body.put("examples", examples);
        body.put("depth", depth);
        var request = HttpRequest.newBuilder(endpoint).timeout(TIMEOUT).header("Authorization", "Bearer " + token)
                .header("Content-Type", "application/json").header("Accept", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(JSON.writeValueAsString(body))).build();
        HttpResponse<String> answer;
        try {
            answer = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build()
                    .send(request, HttpResponse.BodyHandlers.ofString());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new Failed("interrupted");
        } catch (IOException e) {
            // The JDK's client says a refused connection with no message at all.
            throw new Failed("cannot ask " + endpoint + ": " + (e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage()));
        }
        if (answer.statusCode() == 200) {
            return ReportJson.read(answer.body());
        }
        JsonNode error = parse(answer.body());
        if (answer.statusCode() == 400 && error.has("errors")) {
            var errors = new ArrayList<String>();
            error.get("errors").forEach(e -> errors.add(e.asText()));
            throw new Rejected(errors);
        }
        String why = error.has("error") ? error.get("error").asText() : switch (answer.statusCode()) {
            case 401 -> "the token was not accepted";
            case 403 -> "the token's caller is not an administrator";
            case 413 -> "the proposed files together are larger than the server takes (quarkus.http.limits.max-body-size,"
                    + " 1 MiB as shipped); replay them here with a facts export (--facts)";
            default -> "no report";
        };
        throw new Failed(endpoint + " answered " + answer.statusCode() + ": " + why);
    }

    private static JsonNode parse(String body) {
        try {
            return JSON.readTree(body == null || body.isBlank() ? "{}" : body);
        } catch (JsonProcessingException e) {
            return JSON.createObjectNode();
        }
    }
}
