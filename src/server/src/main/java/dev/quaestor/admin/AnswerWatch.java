package dev.quaestor.admin;

import dev.quaestor.audit.AuditLog;
import dev.quaestor.audit.record.AuditEvent;
import dev.quaestor.audit.record.AuditUnavailableException;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.ext.web.RoutingContext;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;
import org.jboss.logging.Logger;

/**
 * The answer to a call of staff (an auditor's read, an administrator's call, a console page view) let in, and on
 * record as {@code ok}, on its way to the client. If the connection
 * closes, or writing fails, before the answer's end (the client left mid-answer, an export cut off at its write
 * deadline or broken off by a failed read), a second record under the call's request id says so: outcome
 * {@code aborted}, with why and how many bytes of the body had been written by then, so the {@code ok} does not stand
 * alone for an answer the client did not get. An answer written whole into the connection is taken as delivered, unless
 * it is a server error (5xx) that no record of the call's own explains (a failure past the point the call was let in,
 * such as a database error mid-read): then the second record says it was not answered, outcome {@code error}, with the
 * status. Once the call's end is on record by a record of its own ({@link #letGo}), nothing more is said of it.
 *
 * <p>The answer to a change already stored ({@link #startStored}) is watched the same way, but what is on record
 * differs: the change happened, so neither a lost answer nor a server error after it may read as if it had not. Both
 * are {@code aborted}, saying the change is stored and its answer was not delivered; {@code error} is kept for a change
 * that was not stored (on record by the change's own record, not by this watch).
 */
final class AnswerWatch {

    private static final Logger LOG = Logger.getLogger(AnswerWatch.class);

    private final AuditLog log;
    private final HttpServerResponse response;
    /** The record of how the call ended, not as answered. */
    private final Ending ending;
    /** Whether the answer is to a change already stored. */
    private final boolean changeStored;
    /** Whether the answer's end is known: delivered, lost (and recorded), or on record otherwise. */
    private final AtomicBoolean settled = new AtomicBoolean();

    private AnswerWatch(AuditLog log, HttpServerResponse response, Ending ending, boolean changeStored) {
        this.log = log;
        this.response = response;
        this.ending = ending;
        this.changeStored = changeStored;
    }

    /** The record that the call ended as {@code outcome}, not as answered: why, and the bytes of its body written (or null). */
    interface Ending {
        AuditEvent record(String outcome, String why, Long written);
    }

    /**
     * Watches the answer of the request {@code rc} from now until its end. Call it once the call's {@code ok} has
     * committed: a connection that closed before then is found closed here, and the answer counts as lost.
     */
    static AnswerWatch start(RoutingContext rc, AuditLog log, Ending ending) {
        return start(rc, log, ending, false);
    }

    /**
     * As {@link #start}, for the answer to a change on record as {@code ok} and since stored (committed): call it once
     * the change has committed. An answer that does not reach the client, or that is a server error, is on record as
     * {@code aborted}, saying the change is stored.
     */
    static AnswerWatch startStored(RoutingContext rc, AuditLog log, Ending ending) {
        return start(rc, log, ending, true);
    }

    private static AnswerWatch start(RoutingContext rc, AuditLog log, Ending ending, boolean changeStored) {
        var watch = new AnswerWatch(log, rc.response(), ending, changeStored);
        rc.addEndHandler(done -> {
            // Only an answer written to its end is delivered: a streamed answer's writer takes the connection's close to
            // itself, and its close then ends the request as if it had succeeded. An answer written to its end is, even
            // if the connection reports its close before the end (a client that asked to upgrade to h2c, as Java's
            // does, closes it as soon as it has the answer).
            if (watch.response.ended()) {
                int status = watch.response.getStatusCode();
                if (status >= 500) {
                    watch.failed(status);
                } else {
                    watch.settled.set(true);
                }
            } else {
                watch.lost(done.failed() ? String.valueOf(done.cause()) : "the connection closed before the answer's end");
            }
        });
        if (rc.response().closed() && !rc.response().ended()) {
            watch.lost("the connection closed before the answer was written");
        }
        return watch;
    }

    /** The call's end is on record by a record of its own: whatever becomes of its answer, nothing is added. */
    void letGo() {
        settled.set(true);
    }

    /**
     * A streamed answer, {@code what}, broke off with {@code failure} (the client gone, cut off at its write deadline,
     * or its read failed): recorded as lost, the failure by its kind only, as its message may hold what was read.
     */
    void brokeOff(String what, Throwable failure) {
        lost(what + " broke off (" + failure.getClass().getSimpleName() + ")");
    }

    /**
     * Records, once, that the answer did not reach the client, {@code why} (its writer, when a streamed answer broke
     * off: a response it resets ends without a word to the request's end handlers). Queued, not awaited (this may run on
     * the connection's I/O thread); if it cannot be queued that is logged, as there is nothing left to refuse.
     */
    void lost(String why) {
        if (!settled.compareAndSet(false, true)) {
            return;
        }
        long written = response.bytesWritten();
        submit(ending.record("aborted", (changeStored ? "the change is stored; " : "") + "the answer did not reach the client: "
                + why + "; " + written + " bytes of its body written by then", written));
    }

    /**
     * Records, once, that the call was answered with the server error {@code status} that no record of its own explains:
     * it failed after it was let in (what failed is in the server's log, not on record, as it may hold what was read).
     * For a change already stored, that is its answer not delivered ({@code aborted}): the change happened.
     */
    private void failed(int status) {
        if (!settled.compareAndSet(false, true)) {
            return;
        }
        if (changeStored) {
            submit(ending.record("aborted", "the change is stored; the answer was not delivered: the call failed after the "
                    + "change was stored (HTTP " + status + ")", null));
            return;
        }
        submit(ending.record("error", "not answered: the call failed after it was let in (HTTP " + status + ")", null));
    }

    /** Queues the record, not awaited (this may run on the connection's I/O thread). */
    private void submit(AuditEvent record) {
        try {
            log.submit(record);
        } catch (AuditUnavailableException | RejectedExecutionException e) {
            LOG.errorf("request %s: the record that it was not answered could not be queued: %s",
                    record.requestId(), e.toString());
        }
    }
}
