package dev.quaestor.support;

import dev.quaestor.audit.AuditLog;
import dev.quaestor.audit.config.AuditConfig;
import dev.quaestor.audit.record.AuditEvent;
import dev.quaestor.audit.record.Caller;
import dev.quaestor.audit.record.FieldHasher;
import dev.quaestor.audit.write.GroupCommitWriter;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import javax.sql.DataSource;

/**
 * A log of its own written at a past instant, in the test database (inside a {@code @QuarkusTest}): its writer's start,
 * one read of {@code uri} by historian and its stop, every record and checkpoint stamped {@code at}. The audit log then
 * holds a record from that day, as a log in use since then would; it verifies like any other.
 */
public final class PastLog {

    private PastLog() {
    }

    /** Writes the log, named {@code name}, at {@code at}. */
    public static void write(DataSource ds, AuditConfig config, AuditLog log, String name, Instant at, String uri) {
        var w = new GroupCommitWriter(ds, config, log.signingKey(), FieldHasher.none(), name, new SimpleMeterRegistry(),
                Clock.fixed(at, ZoneOffset.UTC));
        w.start();
        var historian = new Caller("historian", "cli", "acme", List.of("pi"), "10.0.0.1", "ua", "s", null, null, null);
        w.append(AuditEvent.of(AuditEvent.Kind.DECISION, name + "-read").time(at).caller(historian).method("resources/read")
                .action("read").uri(uri).decision("ALLOW").rules(List.of("r1")).policyRevision("rev").build());
        w.append(AuditEvent.of(AuditEvent.Kind.OUTCOME, name + "-read").time(at).caller(historian).method("resources/read")
                .action("read").uri(uri).policyRevision("rev").outcome("ok").bytes(12L).build());
        w.stop();
    }
}
