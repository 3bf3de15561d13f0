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

/** A search a case is about: its name and the search page's query string ({@link SearchFilters}), as it was added. */
@Entity
@Table(name = "audit_case_search")
public class CaseSearch extends PanacheEntityBase {

    @Id
    @GeneratedValue(strategy = GenerationType.IDENTITY)
    public Long id;

    @ManyToOne(optional = false)
    @JoinColumn(name = "case_id")
    public AuditCase auditCase;

    @Column(nullable = false)
    public String name;

    @Column(nullable = false)
    public String query;

    @Column(name = "added_by", nullable = false)
    public String addedBy;

    @Column(name = "added_at", nullable = false)
    public Instant addedAt;
}
