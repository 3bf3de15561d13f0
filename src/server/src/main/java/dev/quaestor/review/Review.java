package dev.quaestor.review;

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
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;

/**
 * One day's review of the audit log (PCI DSS 10.4.1, produced automatically as 10.4.1.1 asks): what the job
 * found, and who signed it off, when, how they signed in, with which note. {@code digest} is the SHA-256 of the
 * review's findings ({@link ReviewDigest}); the audit records of its production and its sign-off carry it, so
 * the trail alone proves what was reviewed and signed.
 */
@Entity
@Table(name = "review")
public class Review extends PanacheEntityBase {

    @Id
    @GeneratedValue(strategy = GenerationType.IDENTITY)
    public Long id;

    @Column(name = "review_day", nullable = false, unique = true)
    public LocalDate day;

    @Column(name = "generated_at", nullable = false)
    public Instant generatedAt;

    @Column(name = "generated_by", nullable = false)
    public String generatedBy;

    @Column(nullable = false)
    public Instant deadline;

    @Column(name = "integrity_ok", nullable = false)
    public boolean integrityOk;

    public String integrity;

    @Column(nullable = false)
    public String digest;

    @Column(name = "signed_by")
    public String signedBy;

    @Column(name = "signed_at")
    public Instant signedAt;

    @Column(name = "signed_auth")
    public String signedAuth;

    @Column(name = "sign_off_note")
    public String signOffNote;

    @Column(name = "sign_off_request")
    public String signOffRequest;

    @OneToMany(mappedBy = "review", cascade = CascadeType.PERSIST)
    @OrderBy("category, eventCount desc, subject")
    public List<Finding> findings = new ArrayList<>();

    public boolean signed() {
        return signedAt != null;
    }

    public boolean overdue(Instant now) {
        return signedAt == null && now.isAfter(deadline);
    }

    public static Review forDay(LocalDate day) {
        return find("day", day).firstResult();
    }

    public static List<Review> newestFirst(int limit) {
        return find("order by day desc").page(0, limit).list();
    }

    /** The days from {@code first} to {@code last} (both included) that have a review. */
    public static List<LocalDate> daysBetween(LocalDate first, LocalDate last) {
        return getEntityManager().createQuery("select r.day from Review r where r.day between ?1 and ?2", LocalDate.class)
                .setParameter(1, first).setParameter(2, last).getResultList();
    }

    public static long countOverdue(Instant now) {
        return count("signedAt is null and deadline < ?1", now);
    }
}
