package dev.quaestor.cases;

import io.quarkus.narayana.jta.QuarkusTransaction;
import java.util.function.Function;

/**
 * One change to a case or a hold: made in a transaction of its own, put on record, then committed.
 *
 * <p>The record is committed (by the audit writer, on its own connection) before the change's transaction commits, so
 * no change is ever stored without its record. That order leaves one gap: the transaction can still fail after the
 * record (its commit refused, its connection lost). Then a further record, under the same uri with outcome
 * {@code error}, names the first record's request id and says the change was not stored; so does one for a change
 * refused once on record (a check that reads the audit trail is made only after the record), with the refusal's
 * outcome. So a record of a change with outcome {@code ok} that no such record names is a change that was stored
 * ({@code aborted} is kept for a stored change whose answer was not delivered). Recording after the commit instead
 * would open a worse gap: a change stored with no record at all when the log cannot commit.
 */
final class ChangeCommit {

    private final ChangeRecorder recorder;
    private String uri;
    private String requestId;

    private ChangeCommit(ChangeRecorder recorder) {
        this.recorder = recorder;
    }

    /** Runs {@code change} in a new transaction and commits it; if it fails after its record, says so on record. */
    static <T> T run(ChangeRecorder recorder, Function<ChangeCommit, T> change) {
        var commit = new ChangeCommit(recorder);
        try {
            return QuarkusTransaction.requiringNew().call(() -> change.apply(commit));
        } catch (RuntimeException e) {
            commit.notStored(e);
            throw e;
        }
    }

    /** Puts the change on record ({@code ok}); called once, after the change is flushed and before the commit. */
    void record(String uri, String detail) {
        this.uri = uri;
        this.requestId = recorder.record(uri, "ok", detail);
    }

    private void notStored(RuntimeException e) {
        if (requestId == null) {
            return; // refused or failed before its record: nothing on record claims it
        }
        try {
            if (e instanceof CaseRefusal r) {
                recorder.record(uri, r.outcome(), "not stored: " + r.getMessage());
            } else {
                recorder.record(uri, "error", "not stored: the change recorded as request " + requestId + " did not commit ("
                        + e.getClass().getSimpleName() + ")");
            }
        } catch (RuntimeException again) {
            e.addSuppressed(again);
        }
    }
}
