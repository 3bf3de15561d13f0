package dev.quaestor.policy.history;

import dev.quaestor.policy.PolicyLoader;
import io.quarkus.hibernate.orm.panache.PanacheEntityBase;
import io.quarkus.narayana.jta.QuarkusTransaction;
import jakarta.persistence.CollectionTable;
import jakarta.persistence.Column;
import jakarta.persistence.ElementCollection;
import jakarta.persistence.Entity;
import jakarta.persistence.FetchType;
import jakarta.persistence.Id;
import jakarta.persistence.JoinColumn;
import jakarta.persistence.MapKeyColumn;
import jakarta.persistence.Table;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A policy revision as it was when it first became active: its files, name to text. The revision is the
 * SHA-256 of those files, so what is stored here can be checked against the revision audit records name.
 */
@Entity
@Table(name = "policy_revision")
public class StoredRevision extends PanacheEntityBase {

    @Id
    public String revision;

    @Column(name = "first_seen", nullable = false)
    public Instant firstSeen;

    @Column(nullable = false)
    public int rules;

    @ElementCollection(fetch = FetchType.LAZY)
    @CollectionTable(name = "policy_revision_file", joinColumns = @JoinColumn(name = "revision"))
    @MapKeyColumn(name = "name")
    @Column(name = "content", nullable = false)
    public Map<String, String> files = new HashMap<>();

    /** The files sorted by name. */
    public Map<String, String> sortedFiles() {
        return new TreeMap<>(files);
    }

    /** The stored files of a revision no longer hash to it: they were changed after they were stored. */
    public static final class Altered extends RuntimeException {
        Altered(String revision, String found) {
            super("the stored files of policy revision " + revision + " hash to " + found
                    + ", not to the revision: they were changed in the database after they were stored", null, false, false);
        }
    }

    /**
     * A revision's stored files, sorted by name, checked against the revision (the SHA-256 the audit records name):
     * null if the revision is not stored (or cannot be: a name with a NUL); {@link Altered} if the files no longer hash to it. Runs its own
     * transaction.
     */
    public static Map<String, String> checkedFiles(String revision) {
        if (revision.indexOf('\0') >= 0) {
            return null; // no revision's name holds a NUL, and the database cannot be asked for one
        }
        Map<String, String> stored = QuarkusTransaction.requiringNew().call(() -> {
            StoredRevision r = findById(revision);
            return r == null ? null : r.sortedFiles();
        });
        if (stored == null) {
            return null;
        }
        String found = PolicyLoader.revision(List.copyOf(stored.entrySet()));
        if (!found.equals(revision)) {
            throw new Altered(revision, found);
        }
        return stored;
    }
}
