package dev.quaestor.console;

import dev.quaestor.settings.RangeChecked;
import dev.quaestor.settings.SettingRanges;
import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.Duration;
import java.util.Optional;

@ConfigMapping(prefix = "quaestor.console")
public interface ConsoleConfig extends RangeChecked {

    /** A console session with no request for this long ends; the next request signs in again (PCI DSS 8.2.8). */
    @WithDefault("15M")
    Duration idleTimeout();

    /**
     * The longest a console session lasts, however active: then the person signs in again (NIST SP 800-63B asks for
     * re-authentication at least every 12 hours at AAL2). Also how long the row of an ended session is kept, so that
     * a copy of its cookies is recognised and refused.
     */
    @WithDefault("12H")
    Duration maxSession();

    /**
     * The key (any text, 32 characters or more) that signs the console's CSRF tokens; every replica needs the same.
     * Unset: derived from the console's OIDC client secret, or random per process without one.
     */
    Optional<String> secret();

    /**
     * The organisation's time zone (an IANA name such as Europe/Zurich): the console reads and shows times in it for
     * staff who have not chosen their own. UTC when unset.
     */
    Optional<String> timeZone();

    /** Records per search page. */
    @WithDefault("50")
    int pageSize();

    /** Allowed ranges: both durations more than 0, {@code page-size} at least 1. */
    @Override
    default void checkRanges(SettingRanges r) {
        r.positive("quaestor.console.idle-timeout", idleTimeout())
                .positive("quaestor.console.max-session", maxSession())
                .atLeast("quaestor.console.page-size", pageSize(), 1);
    }
}
