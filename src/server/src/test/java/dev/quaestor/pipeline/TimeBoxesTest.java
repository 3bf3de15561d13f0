package dev.quaestor.pipeline;

import org.eclipse.microprofile.faulttolerance.exceptions.TimeoutException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class TimeBoxesTest {

    private final TimeBoxes boxes = new TimeBoxes(5);

    @AfterEach
    void close() {
        boxes.close();
    }

    @Test
    void aCallThatEndsInTimeGivesItsResultAndLeavesNoInterrupt() throws Exception {
        for (int i = 0; i < 1000; i++) {
            assertEquals("done", boxes.run(1000, () -> "done"));
        }
        var failure = new IllegalStateException("its own failure");
        assertSame(failure, assertThrows(IllegalStateException.class, () -> boxes.run(1000, () -> {
            throw failure;
        })));
        Thread.sleep(50); // ticks after the calls ended: none is interrupted late
        assertFalse(Thread.currentThread().isInterrupted());
    }

    @Test
    void aCallPastItsDeadlineIsInterruptedAndEndsInATimeoutWithTheInterruptCleared() {
        long start = System.nanoTime();
        var e = assertThrows(TimeoutException.class, () -> boxes.run(100, () -> {
            try {
                Thread.sleep(10_000);
                return "too late";
            } catch (InterruptedException interrupted) {
                throw new IllegalStateException("interrupted", interrupted);
            }
        }));
        long ms = (System.nanoTime() - start) / 1_000_000;
        assertTrue(ms >= 100 && ms < 2_000, "stopped at its deadline, not after the call's 10 s: " + ms + " ms");
        assertEquals("interrupted", e.getSuppressed()[0].getMessage());
        assertFalse(Thread.currentThread().isInterrupted(), "the interrupt was meant for the call alone");
    }

    @Test
    void aCallThatIgnoresItsInterruptStillEndsInATimeout() {
        assertThrows(TimeoutException.class, () -> boxes.run(50, () -> {
            long until = System.nanoTime() + 300_000_000L;
            while (System.nanoTime() < until) {
                Thread.onSpinWait();
            }
            return "answered after its deadline";
        }));
        assertFalse(Thread.currentThread().isInterrupted());
    }

    @Test
    void theTickIsATwentiethOfTheShortestBoxWithinBounds() {
        assertEquals(100, TimeBoxes.tickFor(10_000));
        assertEquals(35, TimeBoxes.tickFor(700));
        assertEquals(5, TimeBoxes.tickFor(20));
    }
}
