package dev.quaestor.pipeline;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.quaestor.policy.PolicyError;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A refusal's record names as many problems as its detail holds, then says how many more lines there are. */
class PolicyChangeRecorderTest {

    @Test
    void problemsPastTheDetailsRoomAreCountedNotCutOff() {
        var errors = new ArrayList<PolicyError>();
        for (int i = 1; i <= 101; i++) {
            errors.add(new PolicyError("a.yaml", 4 + 5 * i, "unknown key 'efect' in rule 'r" + i + "' (allowed: actions, description,"
                    + " effect, id, resources, subjects, when)"));
        }
        String detail = PolicyChangeRecorder.problems("refused revision abc: ", errors);
        assertTrue(detail.length() <= 4096, "fits the detail column: " + detail.length());
        assertTrue(detail.startsWith("refused revision abc: a.yaml:9: unknown key 'efect' in rule 'r1'"), detail);
        int named = detail.split("; a\\.yaml:").length;
        assertTrue(detail.endsWith("; and " + (101 - named) + " more lines of problems, on the policy page and in the log"),
                detail.substring(detail.length() - 120));

        List<PolicyError> few = errors.subList(0, 2);
        assertEquals("refused revision abc: " + few.get(0) + "; " + few.get(1), PolicyChangeRecorder.problems("refused revision abc: ", few));
    }
}
