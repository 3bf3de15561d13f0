package dev.quaestor.admin;

import dev.quaestor.audit.AuditLog;
import dev.quaestor.audit.record.AuditEvent;
import dev.quaestor.audit.record.Caller;
import io.vertx.ext.web.RoutingContext;
import jakarta.ws.rs.core.Response;

/**
 * The call a request of staff was let in as, once on record as {@code ok} (an auditor's read, an administrator's call,
 * a console page view or change), until how it ended is known. A record of its own says how, under the call's request
 * id, when it was not answered as let in ({@link #notAnswered}); and its answer is watched on its way to the client
 * ({@link AnswerWatch}), so that one lost, or a server error, is on record too. One per request, kept by whoever let
 * the call in ({@link StaffAccess}, the console's access), which says how its door answers a call it cannot answer after
 * all ({@link Door}); the request keeps it for the exception mappers ({@link #of}).
 */
public final class LetInCall {

    /** Where the request keeps the call it was let in as, for {@link #of}. */
    private static final String KEY = LetInCall.class.getName();

    private final AuditLog log;
    private final RoutingContext rc;
    private final Door door;
    private Call call;
    private AnswerWatch answer;

    /** A call of the auditor or administrator API, answered in JSON. */
    public LetInCall(AuditLog log, RoutingContext rc) {
        this(log, rc, null);
    }

    /** A call let in through {@code door}, which answers in its own form what the API answers in JSON. */
    public LetInCall(AuditLog log, RoutingContext rc, Door door) {
        this.log = log;
        this.rc = rc;
        this.door = door;
    }

    /** How a door other than the API (the console's pages) answers a call it let in that its read did not answer. */
    public interface Door {

        /** The audit log's database did not finish the read in time ({@code why}); the call's end is on record. */
        Response timedOut(String why, String requestId);

        /** The read failed ({@code why}, never what failed): a server error, which the answer's watch puts on record. */
        Response failed(String why, String requestId);
    }

    /** The call the request {@code rc} was let in as, on record as {@code ok}; null if none was. */
    static LetInCall of(RoutingContext rc) {
        return rc.get(KEY);
    }

    /** The door the call came in through; null for the API. */
    Door door() {
        return door;
    }

    /** The request id the call is on record under; null if none was let in. */
    String requestId() {
        Call let = call;
        return let == null ? null : let.requestId();
    }

    /** A call let in and recorded {@code ok}: what a later record of how it ended repeats (its uri too, if it names one). */
    public record Call(AuditEvent.Kind kind, Caller caller, String method, String uri, String detail, String requestId) {

        /** The record that the call ended as {@code outcome}, not as answered: {@code why} after the call's detail. */
        AuditEvent.Builder ended(String outcome, String why) {
            return AuditEvent.of(kind, requestId).caller(caller).method(method).uri(uri).decision("ALLOW").outcome(outcome)
                    .detail(detail == null ? why : why == null ? detail : detail + "; " + why);
        }
    }

    /** The call is on record as let in: from now its answer is watched until it has reached the client. */
    public void letIn(Call let) {
        call = let;
        rc.put(KEY, this);
        if (answer == null) {
            answer = AnswerWatch.start(rc, log, (outcome, why, written) -> let.ended(outcome, why).bytes(written).build());
        }
    }

    /**
     * A change is on record as let in, before it is stored: its answer is not watched yet, since a failure meanwhile
     * means the change was not stored, which is put on record under its id ({@link #notAnswered}); see {@link #stored}.
     */
    public void changing(Call let) {
        call = let;
        rc.put(KEY, this);
    }

    /**
     * The change on record by {@link #changing} is stored: from now its answer is watched, and one that does not reach
     * the client, or that is a server error, is on record as {@code aborted} saying the change is stored
     * ({@link AnswerWatch#startStored}). Nothing if no change is on record as let in, or its answer is watched already.
     */
    void stored() {
        Call let = call;
        if (let == null || answer != null) {
            return;
        }
        answer = AnswerWatch.startStored(rc, log, (outcome, why, written) -> let.ended(outcome, why).bytes(written).build());
    }

    /** The answer of the call let in, watched until it has reached the client; null if there is none. */
    AnswerWatch answer() {
        return answer;
    }

    /**
     * The call's end is on record by a record of its own (an export's {@code console/export/done}, an evidence bundle's
     * {@code not-made}): nothing to add, whatever becomes of its answer.
     */
    public void endOnRecord() {
        call = null;
        if (answer != null) {
            answer.letGo();
        }
    }

    /**
     * The call this request was let in as (recorded {@code ok}) was not answered as such after all: records that under
     * the call's request id ({@code ALLOW}, {@code outcome}, {@code why} after the call's detail) and returns that id;
     * null if no call was let in. Its first record then no longer stands alone for an answer the caller did not get.
     */
    public String notAnswered(String outcome, String why) {
        Call let = call;
        if (let == null) {
            return null;
        }
        log.append(let.ended(outcome, why).build());
        endOnRecord();
        return let.requestId();
    }
}
