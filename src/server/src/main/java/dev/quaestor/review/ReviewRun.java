package dev.quaestor.review;

import io.quarkus.hibernate.orm.panache.PanacheEntityBase;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import java.time.Instant;
import java.time.LocalDate;

/**
 * Which replica produces a day's review: the first to insert the day's row (its primary key) does; the others'
 * inserts fail and they leave it. A run that failed marks its row failed and is taken over at once; one that never
 * finished (its replica stopped) is taken over after {@code stale-run-after}.
 */
@Entity
@Table(name = "review_run")
public class ReviewRun extends PanacheEntityBase {

    @Id
    @Column(name = "review_day")
    public LocalDate day;

    @Column(nullable = false)
    public String replica;

    @Column(name = "started_at", nullable = false)
    public Instant startedAt;

    @Column(name = "finished_at")
    public Instant finishedAt;

    /** When the run failed, giving its claim back; cleared when another run takes the day over. */
    @Column(name = "failed_at")
    public Instant failedAt;
}
