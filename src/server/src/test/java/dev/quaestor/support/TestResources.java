package dev.quaestor.support;

import io.quarkus.test.common.QuarkusTestResource;

/** Registers the test environment for every @QuarkusTest in the run. */
@QuarkusTestResource(TestDatabase.class)
@QuarkusTestResource(TestIssuer.class)
@QuarkusTestResource(TestPolicies.class)
public final class TestResources {
    private TestResources() {
    }
}
