package dev.quaestor.cases;

import io.quarkus.hibernate.orm.panache.PanacheEntityBase;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.JoinColumn;
import jakarta.persistence.ManyToOne;
import jakarta.persistence.Table;
import java.time.Instant;

/** A request (by its request id, which all its audit records share) that a case is about. */
@Entity
@Table(name = "audit_case_request")
public class CaseRequest extends PanacheEntityBase {

    @Id
    @GeneratedValue(strategy = GenerationType.IDENTITY)
    public Long id;

    @ManyToOne(optional = false)
    @JoinColumn(name = "case_id")
    public AuditCase auditCase;

    @Column(name = "request_id", nullable = false)
    public String requestId;

    @Column(name = "added_by", nullable = false)
    public String addedBy;

    @Column(name = "added_at", nullable = false)
    public Instant addedAt;
}
