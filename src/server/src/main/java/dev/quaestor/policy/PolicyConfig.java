package dev.quaestor.policy;

import dev.quaestor.settings.RangeChecked;
import dev.quaestor.settings.SettingRanges;
import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.Duration;

@ConfigMapping(prefix = "quaestor.policies")
public interface PolicyConfig extends RangeChecked {

    /** Directory of policy files. */
    @WithDefault("policies")
    String path();

    /** Watch the directory and reload on change. */
    @WithDefault("true")
    boolean watch();

    /**
     * How often the directory is re-read even without a file-system event (a safety net for
     * volumes whose changes raise no events). Unchanged content costs a hash, not a parse.
     */
    @WithDefault("10S")
    Duration pollInterval();

    /**
     * A file in the policy directory whose text is kept with each activation as its annotation (a commit id and
     * message, a ConfigMap's change note). Its name starts with a dot, so it is not a policy file and does not
     * change the revision.
     */
    @WithDefault(".revision-annotation")
    String annotationFile();

    /** Allowed ranges: {@code poll-interval} more than 0. */
    @Override
    default void checkRanges(SettingRanges r) {
        r.positive("quaestor.policies.poll-interval", pollInterval());
    }
}
