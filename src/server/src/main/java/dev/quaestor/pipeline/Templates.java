package dev.quaestor.pipeline;

import dev.quaestor.policy.Action;
import dev.quaestor.policy.PolicySet;
import dev.quaestor.provider.TemplateEntry;
import dev.quaestor.provider.mounts.MountTable.Mounted;
import dev.quaestor.uri.CanonicalUri;
import dev.quaestor.uri.InvalidUriException;
import dev.quaestor.uri.UriCanonicalizer;
import dev.quaestor.uri.UriTemplate;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The serve steps of resource templates: {@code resources/templates/list} (a template is shown only if the caller may
 * read something below its literal part) and {@code completion/complete} (the mount's provider proposes values and only
 * those whose expanded URI the caller may read are returned, at most {@link #MAX_COMPLETIONS}).
 */
final class Templates {

    /** Completion values returned at most (the MCP limit). */
    static final int MAX_COMPLETIONS = 100;
    /** Candidates asked of a provider for one completion, before the policy filter. */
    static final int COMPLETION_SCAN = 1000;

    /** A completion request: the template's text, the argument to complete, its value so far, the others' values. */
    record Ask(String template, String argument, String value, Map<String, String> resolved) {
    }

    private final ContentSources sources;

    Templates(ContentSources sources) {
        this.sources = sources;
    }

    Served<List<TemplateEntry>> list(Trail trail) {
        RequestContext ctx = trail.context();
        var out = new ArrayList<TemplateEntry>();
        for (var m : sources.all()) {
            for (var t : m.provider().templates()) {
                CanonicalUri under = literalPrefix(t.uriTemplate());
                if (under != null && trail.policy().mayAllowBelow(ctx.identity(), Action.READ, under, ctx.facts())) {
                    out.add(t);
                }
            }
        }
        // Filtered by policy, so private; every mount contributes, so the shortest of their lifetimes.
        trail.cache(CacheHint.privateFor(sources.shortestTtlMs()));
        trail.served(Outcome.ok().listed(out.stream().map(TemplateEntry::uriTemplate).toList()));
        return trail.result(List.copyOf(out));
    }

    Served<Completions> complete(Trail trail, Ask ask) {
        String detail = "template " + Trail.truncate(ask.template()) + " argument " + Trail.truncate(ask.argument());
        Mounted owner = null;
        UriTemplate template = null;
        for (var m : sources.all()) {
            for (var t : m.provider().templates()) {
                if (t.uriTemplate().equals(ask.template())) {
                    owner = m;
                    template = UriTemplate.parse(t.uriTemplate());
                }
            }
        }
        if (template == null || !template.variables().contains(ask.argument())) {
            throw trail.failed("invalid-params", detail, new Refusal(Reason.INVALID_ARGUMENT, template == null
                    ? "Unknown resource template" : "The template has no argument named " + Trail.truncate(ask.argument()),
                    Map.of()));
        }
        var known = new LinkedHashMap<String, String>();
        for (var e : ask.resolved().entrySet()) {
            if (template.variables().contains(e.getKey()) && !e.getKey().equals(ask.argument())) {
                known.put(e.getKey(), e.getValue());
            }
        }
        // Nothing the caller may read below what is already typed: no name there is looked at, so the answer is the
        // same whether the folder holds nothing or thousands (hasMore included), and costs the provider nothing.
        // A reserved expansion ({+path}) passes "%41" through as it is, a URI that means "A": a value with a literal '%'
        // there would lead the caller to another resource (or, on 2026-07-28, to a refusal as not canonical). So none
        // is offered, and a value typed with one is answered as a folder the caller may read nothing in: the policy
        // judged "%61lice/" as "alice/", while the provider would look in a folder named "%61lice".
        boolean reserved = template.text().contains("{+" + ask.argument() + "}") || template.text().contains("{#" + ask.argument() + "}");
        CanonicalUri typed = reserved && ask.value().indexOf('%') >= 0 ? null : typedSoFar(template, known, ask.argument(), ask.value());
        if (typed == null || !trail.policy().mayAllowBelow(trail.context().identity(), Action.READ, typed, trail.context().facts())) {
            trail.served(Outcome.ok().listed(List.of()).detail(detail));
            return trail.result(new Completions(List.of(), false));
        }
        List<String> candidates;
        try {
            candidates = sources.complete(trail.context().identity().subject(), owner, ask.template(), ask.argument(),
                    ask.value(), Map.copyOf(known), COMPLETION_SCAN);
        } catch (RuntimeException e) {
            throw trail.failed(e);
        }
        var values = new ArrayList<String>();
        boolean more = candidates.size() >= COMPLETION_SCAN;
        // On a revision that refuses a URI not already canonical, a value the client's expansion would write otherwise
        // is not offered: a simple {ref} writes the ':' of "release:2.x" as "%3A", and the read would be refused.
        String expression = expression(template.text(), ask.argument());
        boolean canonicalOnly = trail.context().protocol().canonicalUrisOnly();
        for (String candidate : candidates) {
            if (candidate == null || !candidate.startsWith(ask.value()) || reserved && candidate.indexOf('%') >= 0
                    || canonicalOnly && !expandsCanonically(expression, ask.argument(), candidate)) {
                continue;
            }
            var with = new LinkedHashMap<>(known);
            with.put(ask.argument(), candidate);
            if (mayRead(trail.context(), trail.policy(), template, with, candidate.endsWith("/"))) {
                if (values.size() == MAX_COMPLETIONS) {
                    more = true;
                    break;
                }
                values.add(candidate);
            }
        }
        trail.served(Outcome.ok().listed(values).detail(detail));
        return trail.result(new Completions(List.copyOf(values), more));
    }

    /**
     * Whether the caller may read the URI a completed value leads to: the resource itself when every
     * variable has a value, else (a folder, or later variables still open) anything below the
     * literal part the values fix.
     */
    private static boolean mayRead(RequestContext ctx, PolicySet policy, UriTemplate template, Map<String, String> values,
            boolean folder) {
        String text = template.text();
        int open = -1;
        for (String v : template.variables()) {
            if (!values.containsKey(v)) {
                int at = firstExpression(text, v);
                open = open < 0 ? at : Math.min(open, at);
            }
        }
        try {
            if (open < 0 && !folder) {
                CanonicalUri uri = UriCanonicalizer.canonicalize(template.expand(values));
                return policy.decide(ctx.identity(), Action.READ, uri, ctx.facts()).allowed();
            }
            String expanded = open < 0 ? template.expand(values) : UriTemplate.parse(text.substring(0, open)).expand(values);
            CanonicalUri below = literalPrefix(expanded + (open < 0 ? "" : "{rest}"));
            return below != null && policy.mayAllowBelow(ctx.identity(), Action.READ, below, ctx.facts());
        } catch (InvalidUriException | IllegalArgumentException e) {
            return false;
        }
    }

    /**
     * The whole segments a completion's URIs all start with: the template up to the argument, expanded with the values
     * known and the argument's partial value (or up to an earlier variable with no value yet); null if that is no URI.
     */
    private static CanonicalUri typedSoFar(UriTemplate template, Map<String, String> known, String argument, String value) {
        String text = template.text();
        int at = firstExpression(text, argument);
        for (String v : template.variables()) {
            if (!v.equals(argument) && !known.containsKey(v)) {
                at = Math.min(at, firstExpression(text, v));
            }
        }
        try {
            if (at < firstExpression(text, argument)) {
                return literalPrefix(UriTemplate.parse(text.substring(0, at)).expand(known) + "{rest}");
            }
            int end = text.indexOf('}', at);
            var with = new LinkedHashMap<>(known);
            with.put(argument, value);
            return literalPrefix(UriTemplate.parse(text.substring(0, end + 1)).expand(with) + "{rest}");
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    /** The expression that names {@code variable} in the template's text: {@code {ref}}, {@code {+path}}… */
    private static String expression(String template, String variable) {
        int at = firstExpression(template, variable);
        return template.substring(at, template.indexOf('}', at) + 1);
    }

    /**
     * Whether {@code value}, expanded as {@code expression} says (RFC 6570), is written as its canonical form: the
     * URI a client builds with it is then one a canonical-only revision reads. A folder's closing {@code /} aside.
     */
    static boolean expandsCanonically(String expression, String variable, String value) {
        String expanded = UriTemplate.parse("x://h/" + expression).expand(Map.of(variable, value));
        String path = expanded.endsWith("/") ? expanded.substring(0, expanded.length() - 1) : expanded;
        try {
            return UriCanonicalizer.canonicalize(path).toString().equals(path);
        } catch (InvalidUriException e) {
            return false;
        }
    }

    private static int firstExpression(String template, String variable) {
        for (String form : new String[] {"{" + variable + "}", "{+" + variable + "}", "{#" + variable + "}"}) {
            int at = template.indexOf(form);
            if (at >= 0) {
                return at;
            }
        }
        return template.length();
    }

    /** The canonical URI of a template's text before its first variable, trimmed to whole segments. */
    private static CanonicalUri literalPrefix(String template) {
        int brace = template.indexOf('{');
        String literal = brace < 0 ? template : template.substring(0, brace);
        int sep = literal.indexOf("://");
        int cut = literal.lastIndexOf('/');
        if (brace >= 0 && cut > sep + 2) {
            literal = literal.substring(0, cut);
        } else if (brace >= 0) {
            literal = literal.substring(0, sep + 3);
        }
        try {
            return UriCanonicalizer.canonicalize(literal);
        } catch (InvalidUriException e) {
            return null;
        }
    }
}
