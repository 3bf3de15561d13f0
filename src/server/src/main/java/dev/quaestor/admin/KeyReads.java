package dev.quaestor.admin;

import dev.quaestor.audit.AuditLog;
import dev.quaestor.audit.record.AuditEvent;
import dev.quaestor.audit.record.Caller;
import dev.quaestor.audit.record.RequestIds;
import dev.quaestor.identity.AddressBudget;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.scheduler.Scheduled;
import jakarta.annotation.Priority;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.time.Instant;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import org.jboss.logging.Logger;

/**
 * What reads of the published key leave in the audit log (PCI DSS 10.2.1.2). Anyone may read the key, so a read is
 * recorded without waiting, and is answered whether or not its record gets in; what reads can make this replica write
 * is bounded per source address and in total ({@link AddressBudget}, {@code quaestor.admin.key-reads.*}). A read is
 * an {@code ADMIN} record of its own while its address and the total have one to spend; past that it is counted into
 * its address's {@link KeyReadCount}, one record per merge window ({@code quaestor.audit.attempts.merge-window}),
 * opening which spends one of the total; once the total is spent, the reads of every address share one count per
 * window. A read whose own record, or a count whose record, cannot be queued or once queued is not stored (its batch
 * failed) is counted into the next window's: a read is counted until it is recorded.
 */
@ApplicationScoped
public class KeyReads {

    static final String METHOD = "audit/key";

    private static final Logger LOG = Logger.getLogger(KeyReads.class);

    /** The count the reads of every address share once the total is spent (no address is written so). */
    private static final String EVERY_ADDRESS = "*";

    private final AuditLog log;
    private final AddressBudget budget;
    private final Map<String, KeyReadCount> open = new ConcurrentHashMap<>();

    KeyReads(AuditLog log, AdminConfig config) {
        this.log = log;
        var limit = config.keyReads();
        this.budget = new AddressBudget(limit.capacity(), limit.totalCapacity(), limit.period());
    }

    /** Records a read of the key from {@code address} (null: unknown): on its own, or counted. Never waits. */
    public void record(String address, String userAgent) {
        Instant now = Instant.now();
        String key = Objects.requireNonNullElse(address, "unknown");
        if (budget.spendRecord(key) && log.appendLater(AuditEvent.of(AuditEvent.Kind.ADMIN, RequestIds.next()).time(now)
                .caller(Caller.anonymous(address, userAgent, null)).method(METHOD).decision("ALLOW").outcome("ok").build(),
                () -> count(key, address, userAgent, now))) {
            return;
        }
        count(key, address, userAgent, now);
    }

    /** Counts a read into its address's count, or into every address's once the total is spent. */
    private void count(String key, String address, String userAgent, Instant when) {
        boolean[] totalSpent = {false};
        open.compute(key, (k, count) -> {
            if (count == null) {
                if (!budget.spendSummary()) {
                    totalSpent[0] = true;
                    return null;
                }
                count = new KeyReadCount(false);
            }
            count.add(address, userAgent, when);
            return count;
        });
        if (totalSpent[0]) {
            open.compute(EVERY_ADDRESS, (k, count) -> {
                KeyReadCount c = count == null ? new KeyReadCount(true) : count;
                c.add(address, userAgent, when);
                return c;
            });
        }
    }

    /**
     * Each merge window: every open count is taken out (later reads open a new one) and its record queued; a count
     * whose record cannot be queued, or once queued is not stored, goes back into the next window's.
     */
    @Scheduled(identity = "key-read-counts", every = "${quaestor.audit.attempts.merge-window:1s}",
            concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    void closeWindow() {
        for (String key : open.keySet()) {
            KeyReadCount count = open.remove(key);
            if (count != null && !log.appendLater(count.toEvent(), () -> open.merge(key, count, KeyReadCount::plus))) {
                open.merge(key, count, KeyReadCount::plus);
            }
        }
    }

    /** Open counts are queued before the audit writer stops (it stops at priority 1). */
    void stop(@Observes @Priority(0) ShutdownEvent ev) {
        closeWindow();
        long left = open.values().stream().mapToLong(KeyReadCount::count).sum();
        if (left > 0) {
            LOG.errorf("%d read(s) of the published key not recorded: the audit queue took no record at shutdown", left);
        }
    }
}
