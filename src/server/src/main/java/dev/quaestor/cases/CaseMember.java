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

/** A member of staff (a subject, as their token names them) who works on a case: who added them and when. */
@Entity
@Table(name = "audit_case_member")
public class CaseMember extends PanacheEntityBase {

    @Id
    @GeneratedValue(strategy = GenerationType.IDENTITY)
    public Long id;

    @ManyToOne(optional = false)
    @JoinColumn(name = "case_id")
    public AuditCase auditCase;

    @Column(nullable = false)
    public String member;

    @Column(name = "added_by", nullable = false)
    public String addedBy;

    @Column(name = "added_at", nullable = false)
    public Instant addedAt;
}
