package dev.quaestor.audit.write;

import dev.quaestor.audit.config.AuditConfig;
import dev.quaestor.audit.record.AuditEvent;
import dev.quaestor.audit.record.Caller;
import dev.quaestor.audit.record.RequestIds;
import dev.quaestor.audit.AuditLog;
import dev.quaestor.audit.record.AuditUnavailableException;
import dev.quaestor.audit.record.FieldHasher;

import io.agroal.api.AgroalDataSource;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * No subject's records waiting for the writer may take more than its share of the queue ({@code quaestor.audit.queue-share}
 * of {@code queue-capacity}): past it that subject's records are refused while another subject's still get in, and
 * summaries of refusals (bounded by the refusal recorder) are not counted. Records of callers without a subject share
 * one share of their own, so that anyone's requests cannot take the queue from those who are known. A writer of its
 * own, not yet started, so that what is submitted stays waiting until the test lets it drain.
 */
@QuarkusTest
class AuditQueueShareTest {

    @Inject
    AgroalDataSource ds;

    @Inject
    AuditConfig config;

    @Inject
    AuditLog log;

    private static AuditEvent decision(String subject) {
        return AuditEvent.of(AuditEvent.Kind.DECISION, RequestIds.next())
                .caller(new Caller(subject, null, null, List.of(), "10.0.0.9", "share-test", null, null, null, null))
                .method("resources/read").action("read").uri("file:///docs/x").decision("ALLOW").build();
    }

    private static AuditEvent keyRead(String address) {
        return AuditEvent.of(AuditEvent.Kind.ADMIN, RequestIds.next()).caller(Caller.anonymous(address, "share-test", null))
                .method("audit/key").decision("ALLOW").outcome("ok").build();
    }

    @Test
    void recordsWithoutASubjectShareOneShareOfTheirOwn() {
        int share = (int) Math.floor(config.queueCapacity() * config.queueShare());
        var writer = new GroupCommitWriter(ds, config, log.signingKey(), FieldHasher.none(), "queue-share-" + System.nanoTime(),
                new SimpleMeterRegistry());
        var accepted = new ArrayList<PendingCommit>();
        for (int i = 0; i < share; i++) {
            accepted.add(writer.submit(keyRead("198.51.100." + (i % 200)), null)); // many addresses, one share
        }
        assertThrows(AuditUnavailableException.class, () -> writer.submit(keyRead("203.0.113.7"), null));
        assertFalse(writer.offer(keyRead("203.0.113.8")), "a record queued without waiting is refused the same way");
        // A known subject still gets in, even one whose name is the word the anonymous share goes by.
        PendingCommit alice = writer.submit(decision("alice"), null);
        assertFalse(writer.atShare("anonymous"));
        PendingCommit named = writer.submit(decision("anonymous"), null);
        writer.start();
        try {
            alice.await();
            named.await();
            accepted.forEach(PendingCommit::await);
            writer.submit(keyRead("203.0.113.7"), null).await();
        } finally {
            writer.stop();
        }
    }

    @Test
    void aSubjectPastItsShareIsRefusedWhileOthersGetIn() {
        int share = (int) Math.floor(config.queueCapacity() * config.queueShare());
        assertTrue(share > 0 && share < config.queueCapacity(), "a share smaller than the queue: " + share);
        var writer = new GroupCommitWriter(ds, config, log.signingKey(), FieldHasher.none(), "queue-share-" + System.nanoTime(),
                new SimpleMeterRegistry());
        var accepted = new ArrayList<PendingCommit>();
        for (int i = 0; i < share; i++) {
            accepted.add(writer.submit(decision("hog"), null));
        }
        assertTrue(writer.atShare("hog"));
        assertThrows(AuditUnavailableException.class, () -> writer.submit(decision("hog"), null));
        assertFalse(writer.offer(decision("hog")), "a record queued without waiting is refused the same way");
        // Another subject still gets in, and so does the summary of the hog's refusals.
        assertFalse(writer.atShare("alice"));
        PendingCommit alice = writer.submit(decision("alice"), null);
        PendingCommit summary = writer.submit(AuditEvent.of(AuditEvent.Kind.ATTEMPT_SUMMARY, RequestIds.next())
                .caller(new Caller("hog", null, null, List.of(), "10.0.0.9", "share-test", null, null, null, null))
                .method("POST /mcp").decision("DENY").outcome("cap:audit-queue-share")
                .summary(2, Instant.now(), Instant.now()).build(), null);
        writer.start();
        try {
            alice.await();
            summary.await();
            accepted.forEach(PendingCommit::await);
            // Once its records have left the queue, the hog is admitted again.
            await().atMost(Duration.ofSeconds(10)).until(() -> !writer.atShare("hog"));
            writer.submit(decision("hog"), null).await();
        } finally {
            writer.stop();
        }
        assertEquals(share, accepted.size());
    }
}
