package dev.quaestor.cases;

import io.quarkus.hibernate.orm.panache.PanacheEntityBase;
import jakarta.persistence.CascadeType;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.OneToMany;
import jakarta.persistence.OrderBy;
import jakarta.persistence.Table;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * An investigation: the searches and requests it is about, the members of staff who work on it, and their notes.
 * Seen only by its members and by the case administrator role ({@link Staff#sees}).
 */
@Entity
@Table(name = "audit_case")
public class AuditCase extends PanacheEntityBase {

    @Id
    @GeneratedValue(strategy = GenerationType.IDENTITY)
    public Long id;

    @Column(nullable = false)
    public String title;

    public String description;

    @Column(name = "created_by", nullable = false)
    public String createdBy;

    @Column(name = "created_at", nullable = false)
    public Instant createdAt;

    /**
     * The key the case's records seal its text under ({@link CaseSeal}): set when the case is opened, or for a case
     * opened before there were keys, by the first change that needs it; never changed.
     */
    @Column(name = "seal_key", updatable = false)
    public byte[] sealKey;

    @OneToMany(mappedBy = "auditCase", cascade = CascadeType.PERSIST, orphanRemoval = true)
    @OrderBy("member")
    public List<CaseMember> members = new ArrayList<>();

    @OneToMany(mappedBy = "auditCase", cascade = CascadeType.PERSIST)
    @OrderBy("id")
    public List<CaseSearch> searches = new ArrayList<>();

    @OneToMany(mappedBy = "auditCase", cascade = CascadeType.PERSIST)
    @OrderBy("id")
    public List<CaseRequest> requests = new ArrayList<>();

    @OneToMany(mappedBy = "auditCase", cascade = CascadeType.PERSIST)
    @OrderBy("id")
    public List<CaseNote> notes = new ArrayList<>();

    /** The uri of the case's audit records: every change to the case is recorded under it, so its history is a search. */
    public static String uriOf(long id) {
        return "quaestor:case/" + id + "/";
    }

    public String uri() {
        return uriOf(id);
    }

    public boolean hasMember(String subject) {
        return members.stream().anyMatch(m -> m.member.equals(subject));
    }

    public boolean hasRequest(String requestId) {
        return requests.stream().anyMatch(r -> r.requestId.equals(requestId));
    }

    /**
     * A page of the cases {@code member} belongs to (every case if null), newest first, from below case {@code before}
     * (from the newest if null): at most {@code limit}, each counted in the database, so a page loads no case's notes or
     * members, however many cases or items there are.
     */
    static List<CaseSummary> page(String member, Long before, int limit) {
        // Two texts rather than ":member is null": PostgreSQL cannot type a parameter that is only compared with null.
        var query = getEntityManager().createQuery("select new dev.quaestor.cases.CaseSummary(c.id, c.title, c.createdBy, c.createdAt,"
                + " (select count(m) from CaseMember m where m.auditCase = c), (select count(s) from CaseSearch s where s.auditCase = c),"
                + " (select count(r) from CaseRequest r where r.auditCase = c), (select count(n) from CaseNote n where n.auditCase = c))"
                + " from AuditCase c where c.id < :before"
                + (member == null ? "" : " and exists (select 1 from CaseMember w where w.auditCase = c and w.member = :member)")
                + " order by c.id desc", CaseSummary.class)
                .setParameter("before", before == null ? Long.MAX_VALUE : before)
                .setMaxResults(limit);
        if (member != null) {
            query.setParameter("member", member);
        }
        return query.getResultList();
    }
}
