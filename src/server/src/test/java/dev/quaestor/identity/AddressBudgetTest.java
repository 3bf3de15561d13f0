package dev.quaestor.identity;

import java.time.Duration;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class AddressBudgetTest {

    @Test
    void aSenderMovingWithinItsSixtyFourSpendsOneBudget() {
        var budget = new AddressBudget(5, 1_000, Duration.ofHours(1));
        int recorded = 0;
        for (int i = 1; i <= 500; i++) {
            if (budget.spendRecord("2001:db8:7:7::" + Integer.toHexString(i))) {
                recorded++;
            }
        }
        assertEquals(5, recorded, "records on their own for 500 addresses of one /64");
        assertTrue(budget.spent("2001:db8:7:7:ffff::1"));
        // Its neighbours keep theirs.
        assertFalse(budget.spent("2001:db8:7:8::1"));
        assertTrue(budget.spendRecord("2001:db8:7:8::1"));
        assertTrue(budget.spendRecord("192.0.2.1"));
        assertTrue(budget.spendRecord("192.0.2.2"));
    }
}
