package dev.quaestor.review;

import io.quarkus.hibernate.orm.panache.PanacheEntityBase;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.JoinColumn;
import jakarta.persistence.ManyToOne;
import jakarta.persistence.Table;

/** One thing a review flags: its category, whose activity it is (if anyone's), how many events, and what. */
@Entity
@Table(name = "review_finding")
public class Finding extends PanacheEntityBase {

    /** What the job looks for each day. */
    public enum Category {
        /** Requests denied, by subject. */
        DENIALS,
        /** Distinct resources read above the subject's own trailing median times the factor. */
        READ_SPIKE,
        /** Reads outside the configured working hours. */
        OFF_HOURS,
        /** Requests refused by a rate limit, by subject. */
        RATE_LIMITED,
        /** Refused authentications, by source address. */
        FAILED_AUTHENTICATION,
        /** The audit log does not verify. */
        INTEGRITY,
        /** A policy revision activated or refused. */
        POLICY_CHANGE
    }

    @Id
    @GeneratedValue(strategy = GenerationType.IDENTITY)
    public Long id;

    @ManyToOne(optional = false)
    @JoinColumn(name = "review_id")
    public Review review;

    @Column(nullable = false)
    public String category;

    /** The subject whose activity this is, when it is someone's. */
    public String subject;

    @Column(name = "event_count", nullable = false)
    public long eventCount;

    public String detail;

    /** What a reviewer made of it ({@link Mark}); null while nobody has. */
    @Column(name = "mark")
    public String mark;

    @Column(name = "marked_by")
    public String markedBy;

    @Column(name = "marked_at")
    public java.time.Instant markedAt;

    /** The reviewer's reason or note. */
    @Column(name = "mark_note")
    public String markNote;

    /** The request id of the mark's audit record. */
    @Column(name = "mark_request")
    public String markRequest;

    /** What a reviewer can make of a finding. */
    public enum Mark {
        /** Looked at; nothing follows. */
        REVIEWED,
        /** Not a concern, for the reason given. */
        DISMISSED,
        /** Handed on for investigation, with a note of to whom and why. */
        ESCALATED;

        /** Whether the mark needs a note (a reason, or to whom it was handed on). */
        public boolean needsNote() {
            return this != REVIEWED;
        }
    }

    public boolean marked() {
        return mark != null;
    }

    public static Finding of(Category category, String subject, long count, String detail) {
        var f = new Finding();
        f.category = category.name();
        f.subject = subject;
        f.eventCount = count;
        f.detail = detail == null || detail.length() <= 4096 ? detail : detail.substring(0, 4096);
        return f;
    }
}
