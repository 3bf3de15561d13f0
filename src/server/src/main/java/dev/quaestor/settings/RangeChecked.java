package dev.quaestor.settings;

/**
 * A configuration group whose numbers and durations have allowed ranges. The start checks every such group
 * ({@code startup.SettingsInRange} lists them) and is refused, naming each property out of its range.
 */
public interface RangeChecked {

    /**
     * Adds to {@code r} each of this group's properties that is out of its range. Every group overrides it; it has a
     * body only because SmallRye Config would read an abstract method of a {@code @ConfigMapping}'s super-interface as
     * a property.
     */
    default void checkRanges(SettingRanges r) {
        throw new UnsupportedOperationException(getClass().getName() + " states no ranges");
    }
}
