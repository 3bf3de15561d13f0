package dev.quaestor.review;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The trailing median the spike finding compares against. */
class ReviewFindingsTest {

    @Test
    void medianOfOddAndEvenCountsIncludingQuietDays() {
        assertEquals(3.0, ReviewQueries.median(new long[] {5, 1, 3}));
        assertEquals(2.5, ReviewQueries.median(new long[] {4, 1, 3, 2}));
        assertEquals(0.0, ReviewQueries.median(new long[] {0, 0, 0, 9, 9}));
        assertEquals(0.0, ReviewQueries.median(new long[0]));
    }
}
