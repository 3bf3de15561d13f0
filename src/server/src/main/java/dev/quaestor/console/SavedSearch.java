package dev.quaestor.console;

import io.quarkus.hibernate.orm.panache.PanacheEntityBase;
import io.quarkus.qute.TemplateData;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import java.time.Instant;
import java.util.List;

/**
 * A search a reviewer named and kept: the search page's query string, its dates as typed (a relative range, such as
 * {@code from=-7d}, stays relative); visible to its owner, and to the other officers when shared. Only its owner
 * removes it.
 */
@Entity
@Table(name = "saved_search")
@TemplateData
public class SavedSearch extends PanacheEntityBase {

    @Id
    @GeneratedValue(strategy = GenerationType.IDENTITY)
    public Long id;

    @Column(nullable = false)
    public String owner;

    @Column(nullable = false)
    public String name;

    @Column(nullable = false)
    public String query;

    /** Whether the other officers see it too. */
    @Column(nullable = false)
    public boolean shared;

    @Column(name = "created_at", nullable = false)
    public Instant createdAt;

    /** The searches {@code subject} sees: their own and those shared by others. */
    public static List<SavedSearch> visibleTo(String subject) {
        return list("owner = ?1 or shared = true order by name, id", subject);
    }
}
