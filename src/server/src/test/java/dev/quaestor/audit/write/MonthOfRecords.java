package dev.quaestor.audit.write;

import dev.quaestor.audit.config.AuditConfig;
import dev.quaestor.audit.record.AuditEvent;
import dev.quaestor.audit.record.Caller;
import dev.quaestor.audit.record.FieldHasher;
import dev.quaestor.audit.AuditLog;

import io.agroal.api.AgroalDataSource;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Instant;
import java.time.YearMonth;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.List;

/**
 * A log of its own written in a past month, with the server's signing key, for retention tests: its start, then
 * {@code records} reads an hour apart (every fourth by bob, the rest by alice), then its stop, which signs the head.
 */
public final class MonthOfRecords {

    private MonthOfRecords() {
    }

    /** Writes the log; returns its id. */
    public static String write(AgroalDataSource ds, AuditConfig config, AuditLog log, YearMonth month, int records) {
        String chain = "month-" + month + "-" + System.nanoTime();
        Instant start = month.atDay(1).atStartOfDay().toInstant(ZoneOffset.UTC);
        var clock = new dev.quaestor.support.SteppedClock(start);
        var w = new GroupCommitWriter(ds, config, log.signingKey(), FieldHasher.none(), chain, new SimpleMeterRegistry(), clock);
        w.start();
        for (int i = 0; i < records; i++) {
            String who = i % 4 == 0 ? "bob" : "alice";
            clock.moveTo(start.plus(i + 1, ChronoUnit.HOURS));
            w.append(AuditEvent.of(AuditEvent.Kind.DECISION, chain + "-" + i).time(start.plus(i + 1, ChronoUnit.HOURS))
                    .caller(new Caller(who, "cli", "acme", List.of("clinician"), "10.0.0.1", "ua", "s", null, null, null))
                    .method("resources/read").action("read").uri("file:///docs/held/" + i).decision("ALLOW")
                    .rules(List.of("r1")).policyRevision("rev").build());
        }
        w.stop();
        return chain;
    }
}
