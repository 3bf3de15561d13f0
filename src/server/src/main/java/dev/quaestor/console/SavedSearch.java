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

/** A search a reviewer named and kept: the search page's query string, visible to its owner only. */
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

    @Column(name = "created_at", nullable = false)
    public Instant createdAt;

    public static List<SavedSearch> of(String owner) {
        return list("owner = ?1 order by name, id", owner);
    }
}
