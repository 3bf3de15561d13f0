package dev.quaestor.audit.read;

import dev.quaestor.settings.RangeChecked;
import dev.quaestor.settings.SettingRanges;
import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.Duration;

/**
 * How many long reads of the audit log (exports, verifies and evidence bundles, from the API and the console) this
 * replica runs at once, overall and per member of staff; past a cap the call gets 429 with {@code Retry-After}, and is
 * recorded. An export or a verify that finds every place of its kind taken waits its turn in a short queue first.
 */
@ConfigMapping(prefix = "quaestor.audit.long-reads")
public interface LongReadConfig extends RangeChecked {

    /** Exports (the API's and the console's) running at once on this replica. */
    @WithDefault("4")
    int exports();

    /** Exports one member of staff (one subject) runs at once. */
    @WithDefault("2")
    int exportsPerPerson();

    /**
     * Exports that may wait for the export places of this replica when all are taken (0: none waits), served in the
     * order they came, as verifies are.
     */
    @WithDefault("4")
    int exportQueue();

    /** How long an export waits in that queue before it is refused (429). */
    @WithDefault("30S")
    Duration exportWait();

    /** Verifies of the whole log running at once on this replica (the API's and the console's integrity page). */
    @WithDefault("1")
    int verifies();

    /** Verifies one member of staff runs at once. */
    @WithDefault("1")
    int verifiesPerPerson();

    /**
     * Verifies that may wait for the verify places of this replica when all are taken (0: none waits). Waiters get
     * a place in the order they came, before anyone who asks after them: one who has just had it waits behind them.
     */
    @WithDefault("4")
    int verifyQueue();

    /** How long a verify waits in that queue before it is refused (429). */
    @WithDefault("30S")
    Duration verifyWait();

    /**
     * Evidence bundles (the API's and the console's) made at once on this replica: each reads records, proofs,
     * checkpoints and policy files, so one person asking for many cannot take the places of everyone else's.
     */
    @WithDefault("2")
    int bundles();

    /** Evidence bundles one member of staff makes at once. */
    @WithDefault("1")
    int bundlesPerPerson();

    /**
     * Reads of a case's records (its console page, {@code GET /audit/cases/{id}/records} and a search's count) at once
     * on this replica: a case may hold a thousand requests and searches, so each read is bounded and takes a place,
     * and one person viewing many cases at once cannot take the audit-read connections of everyone else.
     */
    @WithDefault("4")
    int caseReads();

    /** Reads of a case's records one member of staff runs at once. */
    @WithDefault("2")
    int caseReadsPerPerson();

    /** The {@code Retry-After} of a call refused at a cap (whole seconds, at least 1). */
    @WithDefault("10S")
    Duration retryAfter();

    /** Allowed ranges: every count at least 1, each queue 0 or more, every duration more than 0. */
    @Override
    default void checkRanges(SettingRanges r) {
        String p = "quaestor.audit.long-reads.";
        r.atLeast(p + "exports", exports(), 1)
                .atLeast(p + "exports-per-person", exportsPerPerson(), 1)
                .atLeast(p + "export-queue", exportQueue(), 0)
                .positive(p + "export-wait", exportWait())
                .atLeast(p + "verifies", verifies(), 1)
                .atLeast(p + "verifies-per-person", verifiesPerPerson(), 1)
                .atLeast(p + "verify-queue", verifyQueue(), 0)
                .positive(p + "verify-wait", verifyWait())
                .atLeast(p + "bundles", bundles(), 1)
                .atLeast(p + "bundles-per-person", bundlesPerPerson(), 1)
                .atLeast(p + "case-reads", caseReads(), 1)
                .atLeast(p + "case-reads-per-person", caseReadsPerPerson(), 1)
                .positive(p + "retry-after", retryAfter());
    }
}
