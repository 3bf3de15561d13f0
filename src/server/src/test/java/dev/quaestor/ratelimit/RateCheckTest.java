package dev.quaestor.ratelimit;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

class RateCheckTest {

    @Test
    void retryAfterIsWholeSecondsRoundedUpAndNeverZero() {
        assertEquals(1, RateCheck.retryAfterSeconds(0));
        assertEquals(1, RateCheck.retryAfterSeconds(1));
        assertEquals(1, RateCheck.retryAfterSeconds(1_000_000_000L));
        assertEquals(2, RateCheck.retryAfterSeconds(1_000_000_001L));
        assertEquals(30, RateCheck.retryAfterSeconds(29_500_000_000L));
    }
}
