package dev.quaestor.admin;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.quaestor.policy.PolicyError;
import dev.quaestor.policy.PolicyLoader;
import dev.quaestor.policy.PolicySet;
import dev.quaestor.uri.UriCanonicalizer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Rules that apply to nothing the mounts serve are named; every rule that could apply to a served URI is not. */
class UnservedRulesTest {

    private static final String RULES = """
            apiVersion: quaestor/v1
            kind: Policy
            rules:
              - {id: docs-read, effect: allow, actions: [read], resources: ["file:///docs/**"], subjects: {roles: [staff]}}
              - {id: trial-raw, effect: deny, actions: [read], resources: ["file:///docs/trials/*/raw/**"], subjects: {roles: ["*"]}}
              - {id: home, effect: allow, actions: [read], resources: ["file:///docs/home/${subject}/**"], subjects: {roles: [staff]}}
              - {id: everything, effect: deny, actions: [read], resources: ["**"], subjects: {roles: [guest]}}
              - {id: any-fixture, effect: allow, actions: [read], resources: ["test://*/x"], subjects: {roles: [staff]}}
              - {id: misspelt-scheme, effect: deny, actions: [read], resources: ["files:///docs/trials/**"], subjects: {roles: ["*"]}}
              - {id: other-folder, effect: deny, actions: [read], resources: ["file:///finance/**", "git://handbook/**"], subjects: {roles: ["*"]}}
              - {id: half-served, effect: allow, actions: [read], resources: ["file:///finance/**", "file:///docs/a.md"], subjects: {roles: [staff]}}
            """;

    @Test
    void aRuleNoPatternOfWhichCouldMatchUnderAMountIsNamedWithItsPlace() {
        var errors = new ArrayList<PolicyError>();
        PolicySet set = PolicyLoader.parse(List.of(Map.entry("p.yaml", RULES)), errors);
        assertEquals(List.of(), errors);
        var prefixes = List.of(UriCanonicalizer.canonicalize("file:///docs/"), UriCanonicalizer.canonicalize("test://"));

        assertEquals(List.of(
                "p.yaml:9: rule 'misspelt-scheme' (deny) names only files:///docs/trials/**, which no mount serves",
                "p.yaml:10: rule 'other-folder' (deny) names only file:///finance/**, git://handbook/**, which no mount serves"),
                UnservedRules.of(set, prefixes));
        // Mount the folder, and the rule that named it is no longer unserved.
        assertEquals(List.of("p.yaml:9: rule 'misspelt-scheme' (deny) names only files:///docs/trials/**, which no mount serves"),
                UnservedRules.of(set, List.of(prefixes.get(0), prefixes.get(1), UriCanonicalizer.canonicalize("file:///finance/"),
                        UriCanonicalizer.canonicalize("git://handbook/"))));
    }
}
