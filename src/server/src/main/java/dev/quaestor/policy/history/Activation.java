package dev.quaestor.policy.history;

import io.quarkus.hibernate.orm.panache.PanacheEntityBase;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import java.time.Instant;
import java.util.List;

/** One replica making a revision active: when, how (start-up, file change, reload), and the annotation given. */
@Entity
@Table(name = "policy_activation")
public class Activation extends PanacheEntityBase {

    @Id
    @GeneratedValue(strategy = GenerationType.IDENTITY)
    public Long id;

    @Column(nullable = false)
    public String revision;

    @Column(name = "activated_at", nullable = false)
    public Instant activatedAt;

    @Column(nullable = false)
    public String replica;

    @Column(nullable = false)
    public String how;

    /** The revision active before, on this replica (none at start-up). */
    public String previous;

    public String annotation;

    /** Newest first. */
    public static List<Activation> newestFirst(int limit) {
        return find("order by activatedAt desc, id desc").page(0, limit).list();
    }

    public static List<Activation> of(String revision) {
        return list("revision = ?1 order by activatedAt", revision);
    }
}
