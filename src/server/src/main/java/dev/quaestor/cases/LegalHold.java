package dev.quaestor.cases;

import io.quarkus.hibernate.orm.panache.PanacheEntityBase;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.EnumType;
import jakarta.persistence.Enumerated;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.JoinColumn;
import jakarta.persistence.ManyToOne;
import jakarta.persistence.Table;
import java.time.Instant;
import java.util.List;

/**
 * A legal hold of a case: what it covers ({@link HoldScope} and target) from {@code from} until {@code to} (null: no
 * end). Until it is released its records are kept from retention. Its release takes two people: one asks, another
 * releases. Only its range (widened) and its release columns are ever updated: the application role may update no
 * other column, and on PostgreSQL a trigger refuses any other change to a hold, to every role.
 */
@Entity
@Table(name = "legal_hold")
public class LegalHold extends PanacheEntityBase {

    @Id
    @GeneratedValue(strategy = GenerationType.IDENTITY)
    public Long id;

    @ManyToOne(optional = false)
    @JoinColumn(name = "case_id", updatable = false)
    public AuditCase auditCase;

    @Enumerated(EnumType.STRING)
    @Column(nullable = false, updatable = false)
    public HoldScope scope;

    @Column(updatable = false)
    public String target;

    @Column(name = "from_time", nullable = false)
    public Instant from;

    @Column(name = "to_time")
    public Instant to;

    @Column(nullable = false, updatable = false)
    public String reason;

    @Column(name = "created_by", nullable = false, updatable = false)
    public String createdBy;

    @Column(name = "created_at", nullable = false, updatable = false)
    public Instant createdAt;

    @Column(name = "release_asked_by")
    public String releaseAskedBy;

    @Column(name = "release_asked_at")
    public Instant releaseAskedAt;

    @Column(name = "release_reason")
    public String releaseReason;

    @Column(name = "released_by")
    public String releasedBy;

    @Column(name = "released_at")
    public Instant releasedAt;

    public boolean released() {
        return releasedAt != null;
    }

    /** The uri of the hold's audit records: under its case's, so that the case's history holds them. */
    public String uri() {
        return AuditCase.uriOf(auditCase.id) + "hold/" + id;
    }

    public static List<LegalHold> ofCase(long caseId) {
        return list("auditCase.id = ?1 order by id", caseId);
    }

    /** The hold's time range, as recorded (its target is not: see {@link CaseSeal}). */
    public String range() {
        return "from " + from + (to == null ? " with no end" : " to " + to);
    }
}
