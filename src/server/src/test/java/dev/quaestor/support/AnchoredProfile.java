package dev.quaestor.support;

import io.quarkus.test.junit.QuarkusTestProfile;
import java.util.List;
import java.util.Map;

/**
 * The server anchoring its checkpoints with the test TSA ({@link TestTsa}): every checkpoint (one a second in
 * tests), looked for every second, two seconds allowed per request to the TSA.
 */
public class AnchoredProfile implements QuarkusTestProfile {

    @Override
    public Map<String, String> getConfigOverrides() {
        return Map.of("quaestor.audit.anchor.poll", "1S", "quaestor.audit.anchor.timeout", "2S");
    }

    @Override
    public List<TestResourceEntry> testResources() {
        return List.of(new TestResourceEntry(TestTsa.class));
    }
}
