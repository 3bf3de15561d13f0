package dev.quaestor.pipeline;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.eclipse.microprofile.faulttolerance.exceptions.BulkheadException;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class MountBulkheadTest {

    @Test
    void oneCallMoreThanThePlacesIsRefusedAtOnceAndPlacesComeBackWhenCallsEnd() throws Exception {
        var bulkhead = new MountBulkhead(2);
        var inside = new CountDownLatch(2);
        var release = new CountDownLatch(1);
        Runnable hold = () -> bulkhead.run(() -> {
            inside.countDown();
            try {
                return release.await(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
        });
        var a = new Thread(hold);
        var b = new Thread(hold);
        a.start();
        b.start();
        assertTrue(inside.await(10, TimeUnit.SECONDS));
        long start = System.nanoTime();
        assertThrows(BulkheadException.class, () -> bulkhead.run(() -> "third"));
        assertTrue(System.nanoTime() - start < TimeUnit.SECONDS.toNanos(1), "refused at once");
        release.countDown();
        a.join();
        b.join();
        assertEquals("a", bulkhead.run(() -> "a"));
    }

    @Test
    void aFailingCallGivesItsPlaceBack() {
        var bulkhead = new MountBulkhead(1);
        for (int i = 0; i < 3; i++) {
            assertThrows(IllegalStateException.class, () -> bulkhead.run(() -> {
                throw new IllegalStateException("failed");
            }));
        }
        assertEquals("served", bulkhead.run(() -> "served"));
    }
}
