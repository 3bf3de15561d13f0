package dev.quaestor.admin;

import dev.quaestor.settings.RangeChecked;
import dev.quaestor.settings.SettingRanges;
import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.Duration;

@ConfigMapping(prefix = "quaestor.admin")
public interface AdminConfig extends RangeChecked {

    /** Role (from the token, as mapped by quaestor.identity.roles-claims) allowed to use the admin API. */
    @WithDefault("quaestor-admin")
    String role();

    /** Role allowed to scrape {@code /q/metrics} (as is {@link #role()}); nothing else opens it to a token. */
    @WithDefault("quaestor-metrics")
    String metricsRole();

    /**
     * The OAuth clients (the token's client claim, {@code quaestor.identity.client-claims}) whose tokens may call the
     * administrator and auditor APIs ({@code /admin/*}, {@code /audit/*}), with the role those need. Unset: any client.
     * Set it so that a token an AI client holds for a person with an auditor's role reads content, not the audit log.
     */
    java.util.Optional<java.util.Set<String>> staffClients();

    /** What reads of the published key may have this replica write ({@link KeyReads}). */
    KeyReadBudget keyReads();

    interface KeyReadBudget {
        /** Reads an address may have recorded one by one in a burst; past it they are counted into summaries. */
        @WithDefault("10")
        long capacity();

        /**
         * Records reads of every address together may have this replica write in a burst (each address's own records,
         * and each summary an address opens); past it, every address's reads share one summary per merge window.
         */
        @WithDefault("100")
        long totalCapacity();

        /** The burst refills completely over this period. */
        @WithDefault("60s")
        Duration period();
    }

    /** Allowed ranges: both capacities at least 1, {@code key-reads.period} more than 0. */
    @Override
    default void checkRanges(SettingRanges r) {
        r.atLeast("quaestor.admin.key-reads.capacity", keyReads().capacity(), 1)
                .atLeast("quaestor.admin.key-reads.total-capacity", keyReads().totalCapacity(), 1)
                .positive("quaestor.admin.key-reads.period", keyReads().period());
    }
}
