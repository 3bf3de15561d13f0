package dev.quaestor.console;

import io.quarkus.hibernate.orm.panache.PanacheEntityBase;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import java.time.Instant;

/** The time zone a member of staff reads and types the console's times in, kept between sign-ins. */
@Entity
@Table(name = "console_time_zone")
public class StaffTimeZone extends PanacheEntityBase {

    @Id
    public String subject;

    @Column(name = "zone", nullable = false)
    public String zone;

    @Column(name = "chosen_at", nullable = false)
    public Instant chosenAt;
}
