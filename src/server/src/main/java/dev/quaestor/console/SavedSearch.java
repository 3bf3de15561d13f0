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
import java.util.ArrayList;
import java.util.Comparator;
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

    /** The most searches one reviewer keeps. */
    public static final int MAX_PER_OWNER = 100;

    /** The most searches shared by others the search page lists (the newest). */
    public static final int MAX_SHARED_SHOWN = 100;

    /**
     * The searches {@code subject} sees: their own (at most {@link #MAX_PER_OWNER}) and the newest
     * {@link #MAX_SHARED_SHOWN} shared by others, each by name; a page never loads every search ever shared.
     */
    public static List<SavedSearch> visibleTo(String subject) {
        var seen = new ArrayList<SavedSearch>(find("owner = ?1 order by id desc", subject).page(0, MAX_PER_OWNER).list());
        seen.addAll(find("owner <> ?1 and shared = true order by id desc", subject).page(0, MAX_SHARED_SHOWN).list());
        seen.sort(Comparator.comparing((SavedSearch s) -> s.name).thenComparing(s -> s.id));
        return seen;
    }

    /** How many searches {@code owner} keeps. */
    public static long keptBy(String owner) {
        return count("owner", owner);
    }
}
