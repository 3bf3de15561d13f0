package dev.quaestor.pipeline;

import dev.quaestor.audit.record.AuditRecords;
import dev.quaestor.audit.refusals.RecordedRefusal;
import dev.quaestor.ratelimit.RateCheck;
import dev.quaestor.uri.UriCanonicalizer;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A request the path stopped, already audited. The message and details are written for the
 * caller (the URI, a time box, a retry delay) and never carry internal detail. A refusal recorded through
 * the {@link dev.quaestor.audit.refusals.RefusalRecorder} names its record ({@link #record}): when that record is a summary
 * still to commit, the refusal may be answered only once it has, and with its request id.
 */
public final class Refusal extends RuntimeException {

    private final Reason reason;
    private final Map<String, Object> details;
    private final RateCheck rate;
    private final RecordedRefusal record;

    public Refusal(Reason reason, String message, Map<String, Object> details) {
        this(reason, message, details, null, null);
    }

    /** {@code rate}: the limiter's answer, for a refusal that reports it (a rate-limit refusal). */
    public Refusal(Reason reason, String message, Map<String, Object> details, RateCheck rate) {
        this(reason, message, details, rate, null);
    }

    /** {@code record}: how the refusal was recorded, when the {@link dev.quaestor.audit.refusals.RefusalRecorder} recorded it. */
    Refusal(Reason reason, String message, Map<String, Object> details, RateCheck rate, RecordedRefusal record) {
        super(message, null, false, false);
        this.reason = reason;
        this.details = details == null ? new LinkedHashMap<>() : new LinkedHashMap<>(details);
        this.rate = rate;
        this.record = record;
    }

    /**
     * The details of a refusal that names a URI (a mutable map, to add more): the URI as sent, cut as the record cuts
     * it when it is longer than a URI may be, so that a refusal of a megabyte of URI is not a megabyte long.
     */
    static Map<String, Object> uriData(String uri) {
        var data = new LinkedHashMap<String, Object>();
        data.put("uri", AuditRecords.cut(uri, UriCanonicalizer.MAX_LENGTH));
        return data;
    }

    /** This refusal, answered the same, with the record the {@link dev.quaestor.audit.refusals.RefusalRecorder} made of it. */
    Refusal recordedAs(RecordedRefusal recorded) {
        return new Refusal(reason, getMessage(), details, rate, recorded);
    }

    public Reason reason() {
        return reason;
    }

    /** Mutable copy: the protocol layer adds what it must (such as the request id). */
    public Map<String, Object> details() {
        return details;
    }

    /** The limiter's answer when this is a rate-limit refusal, else null. */
    public RateCheck rate() {
        return rate;
    }

    /**
     * Its record, when it is counted in a summary of refusals still to commit (answer it once
     * {@link RecordedRefusal#committed} completes, with {@link RecordedRefusal#requestId}); null when its record
     * is already durable under the request's own id.
     */
    public RecordedRefusal pending() {
        return record != null && record.merged() ? record : null;
    }
}
