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

/** A note on a case by a named member of staff; only ever added (the database refuses to change or delete one). */
@Entity
@Table(name = "audit_case_note")
public class CaseNote extends PanacheEntityBase {

    @Id
    @GeneratedValue(strategy = GenerationType.IDENTITY)
    public Long id;

    @ManyToOne(optional = false)
    @JoinColumn(name = "case_id")
    public AuditCase auditCase;

    @Column(nullable = false)
    public String author;

    @Column(name = "written_at", nullable = false)
    public Instant writtenAt;

    @Column(name = "body", nullable = false)
    public String text;
}
