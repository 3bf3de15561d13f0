package dev.quaestor.policy;

import dev.quaestor.identity.Identity;
import dev.quaestor.uri.InvalidUriException;
import dev.quaestor.uri.UriCanonicalizer;
import java.util.Set;
import org.yaml.snakeyaml.nodes.Node;

/** Reads a {@code tests:} entry, each of its parts checked on its own. */
final class TestCaseReader {

    private static final Set<String> TEST_KEYS = Set.of("name", "identity", "action", "uri", "expect", "sourceIp", "time");
    private static final Set<String> TEST_REQUIRED = Set.of("name", "identity", "action", "uri", "expect");
    private static final Set<String> IDENTITY_KEYS = Set.of("subject", "client", "tenant", "roles", "groups", "scopes");

    private TestCaseReader() {
    }

    static PolicyTestCase read(YamlReader y, Node node) {
        var m = y.entries(node, "test", TEST_KEYS);
        var parts = new Parts();
        parts.check(y.hasAll(node, m, "test", TEST_REQUIRED));
        String name = parts.read(m.get("name"), n -> y.string(n, "test name"));
        String what = y.named("test", name, node);
        Identity identity = parts.read(m.get("identity"), n -> identity(y, n, what));
        Action action = parts.read(m.get("action"), n -> testAction(y, n, what));
        String uri = parts.read(m.get("uri"), n -> testUri(y, n, what));
        Boolean allow = parts.read(m.get("expect"), n -> expect(y, n, what));
        String sourceIp = m.containsKey("sourceIp") ? parts.read(m.get("sourceIp"), n -> y.string(n, "sourceIp")) : "127.0.0.1";
        // allowed only in a set without time windows (UntimedTests)
        java.time.Instant time = parts.read(m.get("time"), n -> testTime(y, n, what));
        parts.done();
        return new PolicyTestCase(name, identity, new Facts(sourceIp, time), action, uri, allow, y.file(), y.line(node));
    }

    /** A test's caller, held to the rules' spelling of names: a blank role in a test is as much a mistake as in a rule. */
    private static Identity identity(YamlReader y, Node node, String what) {
        var im = y.entries(node, "identity of " + what, IDENTITY_KEYS);
        var parts = new Parts();
        parts.check(y.hasAll(node, im, "identity of " + what, Set.of("subject")));
        String subject = parts.read(im.get("subject"), n -> Names.one(y, n, "subject"));
        String client = parts.read(im.get("client"), n -> Names.one(y, n, "client"));
        String tenant = parts.read(im.get("tenant"), n -> Names.one(y, n, "tenant"));
        Set<String> roles = parts.read(() -> Names.list(y, im.get("roles"), "roles"));
        Set<String> groups = parts.read(() -> Names.list(y, im.get("groups"), "groups"));
        Set<String> scopes = parts.read(() -> Names.list(y, im.get("scopes"), "scopes"));
        parts.done();
        return new Identity(subject, client, tenant, roles, groups, scopes);
    }

    private static Action testAction(YamlReader y, Node node, String what) {
        String text = y.string(node, "action");
        Action action = Action.fromWireName(text);
        if (action == null) {
            throw y.fail(node, what + ": unknown action '" + text + "'");
        }
        return action;
    }

    private static String testUri(YamlReader y, Node node, String what) {
        String uri = y.string(node, "uri");
        try {
            UriCanonicalizer.canonicalize(uri);
        } catch (InvalidUriException e) {
            throw y.fail(node, what + ": " + e.getMessage());
        }
        return uri;
    }

    private static boolean expect(YamlReader y, Node node, String what) {
        String expect = y.string(node, "expect");
        if (!expect.equals("allow") && !expect.equals("deny")) {
            throw y.fail(node, what + ": expect must be allow or deny");
        }
        return expect.equals("allow");
    }

    private static java.time.Instant testTime(YamlReader y, Node node, String what) {
        try {
            return java.time.OffsetDateTime.parse(y.string(node, "time")).toInstant();
        } catch (java.time.format.DateTimeParseException e) {
            throw y.fail(node, what + ": time must be ISO-8601 with an offset, e.g. 2026-03-02T09:30:00+01:00");
        }
    }
}
