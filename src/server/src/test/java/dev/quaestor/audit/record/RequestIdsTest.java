package dev.quaestor.audit.record;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class RequestIdsTest {

    @Test
    void idsAreVersion7UuidsCarryingTheirMillisecond() {
        long before = System.currentTimeMillis();
        UUID id = UUID.fromString(RequestIds.next());
        long after = System.currentTimeMillis();
        assertEquals(7, id.version());
        assertEquals(2, id.variant());
        long millis = id.getMostSignificantBits() >>> 16;
        assertTrue(millis >= before && millis <= after, millis + " not in [" + before + ", " + after + "]");
    }

    @Test
    void idsFromLaterMillisecondsSortAfterEarlierOnesAsText() {
        var ids = new ArrayList<String>();
        for (long ms = 1_700_000_000_000L; ms < 1_700_000_000_000L + 5_000; ms += 7) {
            ids.add(RequestIds.at(ms).toString());
        }
        var sorted = new ArrayList<>(ids);
        sorted.sort(null);
        assertEquals(ids, sorted, "time-ordered as strings, so the request_id index is appended to at its end");
    }

    @Test
    void idsInTheSameMillisecondStillDiffer() {
        var seen = new HashSet<String>();
        for (int i = 0; i < 200_000; i++) {
            seen.add(RequestIds.at(1_700_000_000_000L).toString());
        }
        assertEquals(200_000, seen.size());
    }

    @Test
    void everyOneOfTheSeventyFourRandomBitsVaries() {
        long msbSet = 0, msbClear = 0, lsbSet = 0, lsbClear = 0;
        for (int i = 0; i < 2_000; i++) {
            UUID id = RequestIds.at(1_700_000_000_000L);
            msbSet |= id.getMostSignificantBits();
            msbClear |= ~id.getMostSignificantBits();
            lsbSet |= id.getLeastSignificantBits();
            lsbClear |= ~id.getLeastSignificantBits();
        }
        assertEquals(0xfffL, msbSet & msbClear & 0xfffL, "rand_a: 12 bits");
        assertEquals(0x3fffffffffffffffL, lsbSet & lsbClear & 0x3fffffffffffffffL, "rand_b: 62 bits");
    }
}
