package dev.quaestor.cases;

import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import jakarta.transaction.Synchronization;
import jakarta.transaction.TransactionSynchronizationRegistry;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A change whose transaction fails after its record (here its commit, refused at the last moment) is not stored, and
 * a further record, {@code error}, names the first and says so: no record of a change stands unanswered for a change
 * that did not happen. A change that commits has its one record, {@code ok}.
 */
@QuarkusTest
class ChangeCommitTest {

    @Inject
    Cases cases;

    @Inject
    Holds holds;

    @Inject
    TransactionSynchronizationRegistry transactions;

    private record Recorded(String uri, String outcome, String detail, String requestId) {
    }

    /** Keeps what it is given; when {@code failCommit}, makes the transaction it records in fail at its commit. */
    private final class Recorder implements ChangeRecorder {
        final List<Recorded> records = new ArrayList<>();
        final boolean failCommit;

        Recorder(boolean failCommit) {
            this.failCommit = failCommit;
        }

        @Override
        public String record(String uri, String outcome, String detail) {
            String id = "request-" + (records.size() + 1);
            records.add(new Recorded(uri, outcome, detail, id));
            if (failCommit && outcome.equals("ok")) {
                transactions.registerInterposedSynchronization(new Synchronization() {
                    @Override
                    public void beforeCompletion() {
                        throw new IllegalStateException("the commit fails");
                    }

                    @Override
                    public void afterCompletion(int status) {
                    }
                });
            }
            return id;
        }
    }

    @Test
    void aChangeThatDoesNotCommitAfterItsRecordGetsASecondRecordSayingSo() {
        Staff staff = new Staff("auditor", false);
        long id = cases.create(staff, new NewCase("Commit test", null, List.of()), new Recorder(false)).id();

        var failing = new Recorder(true);
        assertThrows(RuntimeException.class, () -> cases.addNote(id, staff, "never stored", failing));
        assertEquals(List.of(), cases.open(id, staff).notes(), "the note did not commit");
        assertEquals(List.of("ok", "error"), failing.records.stream().map(Recorded::outcome).toList(), failing.records.toString());
        assertTrue(failing.records.get(0).detail().startsWith("added note "), failing.records.toString());
        assertEquals(AuditCase.uriOf(id), failing.records.get(1).uri());
        assertTrue(failing.records.get(1).detail().startsWith("not stored: the change recorded as request request-1 did not commit"),
                failing.records.get(1).detail());

        var committing = new Recorder(false);
        cases.addNote(id, staff, "stored", committing);
        assertEquals(List.of("stored"), cases.open(id, staff).notes().stream().map(CaseView.Note::text).toList());
        assertEquals(List.of("ok"), committing.records.stream().map(Recorded::outcome).toList());
    }

    @Test
    void aHoldChangeThatDoesNotCommitIsAnsweredToo() {
        Staff staff = new Staff("auditor", false);
        long id = cases.create(staff, new NewCase("Hold commit test", null, List.of()), new Recorder(false)).id();
        var failing = new Recorder(true);
        assertThrows(RuntimeException.class, () -> holds.put(id, staff, new NewHold("CASE", null, "2026-01-01T00:00:00Z", null, "keep"),
                failing));
        assertEquals(List.of(), holds.ofCase(id, staff), "the hold did not commit");
        assertEquals(List.of("ok", "error"), failing.records.stream().map(Recorded::outcome).toList(), failing.records.toString());
        assertTrue(failing.records.get(1).uri().startsWith(AuditCase.uriOf(id) + "hold/"), failing.records.get(1).uri());
    }
}
