package dev.quaestor.review;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The usual day a read spike is judged against: one's own, one's peers' for someone new, the minimum on a new system. */
class ReviewFindingsTest {

    @Test
    void medianOfOddAndEvenCountsIncludingQuietDays() {
        assertEquals(3.0, SpikeRule.median(new long[] {5, 1, 3}));
        assertEquals(2.5, SpikeRule.median(new long[] {4, 1, 3, 2}));
        assertEquals(0.0, SpikeRule.median(new long[] {0, 0, 0, 9, 9}));
        assertEquals(0.0, SpikeRule.median(new long[0]));
    }

    @Test
    void aSpikeNeedsTheMinimumAndTheFactorOverTheUsualDay() {
        var rule = new SpikeRule(4, 30, 3);
        long[] history = {10, 12, 8, 11, 11};
        assertTrue(rule.judge(29, new long[] {1, 1, 1}, Double.NaN).isEmpty(), "below the minimum, whatever the baseline");
        assertTrue(rule.judge(44, history, 40).isEmpty(), "4.0× of a usual 11 is not above 4×");
        assertTrue(rule.judge(45, history, 40).orElseThrow().contains("their usual day"));
        // Someone with two days of reads: their peers' usual day, not their own.
        assertTrue(rule.judge(100, new long[] {5, 6}, 30).isEmpty(), "100 is not above 4× the peers' 30");
        assertTrue(rule.judge(121, new long[] {5, 6}, 30).orElseThrow().contains("peers' usual day 30"));
        // No one has history yet: nothing below 4× the minimum.
        assertTrue(rule.judge(120, new long[0], Double.NaN).isEmpty());
        assertTrue(rule.judge(121, new long[0], Double.NaN).orElseThrow().contains("for want of a baseline"));
    }
}
