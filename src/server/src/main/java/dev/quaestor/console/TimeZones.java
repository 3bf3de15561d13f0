package dev.quaestor.console;

import io.quarkus.narayana.jta.QuarkusTransaction;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.DateTimeException;
import java.time.Instant;
import java.time.ZoneId;
import java.util.List;
import java.util.stream.Stream;

/**
 * Which time zone the console reads and shows times in for a member of staff: the one they chose, else the
 * organisation's ({@code quaestor.console.time-zone}), else UTC. The console runs no script, so it never learns the
 * browser's zone.
 */
@ApplicationScoped
public class TimeZones {

    /** The zones offered: the region names (Europe/Zurich), and UTC first. */
    static final List<String> OFFERED = Stream.concat(Stream.of("UTC"),
            ZoneId.getAvailableZoneIds().stream().filter(z -> z.matches("(Africa|America|Antarctica|Asia|Atlantic|Australia|Europe|Indian|Pacific)/.+")).sorted())
            .toList();

    /** UTC by that name (not {@code Z}), as the pages and links show it. */
    static final ZoneId UTC = ZoneId.of("UTC");

    private final ZoneId standard;

    TimeZones(ConsoleConfig config) {
        try {
            this.standard = config.timeZone().filter(z -> !z.isBlank()).map(z -> parse(z.trim())).orElse(UTC);
        } catch (IllegalArgumentException e) {
            throw new IllegalStateException("quaestor.console.time-zone: " + e.getMessage() + " (an IANA name such as Europe/Zurich)");
        }
    }

    /** The organisation's zone (UTC when none is configured). */
    public ZoneId standard() {
        return standard;
    }

    /** The zone {@code subject} chose, or the organisation's. */
    public ZoneId of(String subject) {
        String chosen = QuarkusTransaction.requiringNew().call(() -> {
            StaffTimeZone z = StaffTimeZone.findById(subject);
            return z == null ? null : z.zone;
        });
        return chosen == null ? standard : parse(chosen);
    }

    /** Keeps {@code zone} as the one {@code subject} reads times in. */
    public void remember(String subject, ZoneId zone) {
        QuarkusTransaction.requiringNew().run(() -> {
            StaffTimeZone z = StaffTimeZone.findById(subject);
            if (z == null) {
                z = new StaffTimeZone();
                z.subject = subject;
                z.zone = zone.getId();
                z.chosenAt = Instant.now();
                z.persist();
            } else {
                z.zone = zone.getId();
                z.chosenAt = Instant.now();
            }
        });
    }

    /** A zone by its name; throws {@link IllegalArgumentException} for one that is not known. */
    static ZoneId parse(String name) {
        try {
            return ZoneId.of(name);
        } catch (DateTimeException e) {
            throw new IllegalArgumentException("unknown time zone: " + name);
        }
    }
}
