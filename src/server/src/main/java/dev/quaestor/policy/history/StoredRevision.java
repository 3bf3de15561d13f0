package dev.quaestor.policy.history;

import io.quarkus.hibernate.orm.panache.PanacheEntityBase;
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
}
