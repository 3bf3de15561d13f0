package dev.quaestor.settings;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The allowed range of each number and duration a configuration group reads, checked once at start: a group says what
 * it allows ({@code checkRanges} on its {@code @ConfigMapping}) and the start is refused ({@code startup.SettingsInRange}), naming
 * every property out of its range, rather than let a negative interval spin a loop or a negative size fail each request.
 */
public final class SettingRanges {

    private final List<String> problems = new ArrayList<>();

    /** A duration that must be more than zero. */
    public SettingRanges positive(String property, Duration value) {
        if (value.isZero() || value.isNegative()) {
            problems.add(named(property) + " must be more than 0, not " + shown(value));
        }
        return this;
    }

    /** A duration that must be more than zero and at most {@code max}. */
    public SettingRanges positiveAtMost(String property, Duration value, Duration max) {
        if (value.isZero() || value.isNegative() || value.compareTo(max) > 0) {
            problems.add(named(property) + " must be more than 0 and at most " + shown(max) + ", not " + shown(value));
        }
        return this;
    }

    /** A duration that may be zero but not negative. */
    public SettingRanges notNegative(String property, Duration value) {
        if (value.isNegative()) {
            problems.add(named(property) + " must be 0 or more, not " + shown(value));
        }
        return this;
    }

    /** A count or size that must be at least {@code min}. */
    public SettingRanges atLeast(String property, long value, long min) {
        if (value < min) {
            problems.add(named(property) + " must be at least " + min + ", not " + value);
        }
        return this;
    }

    /** A number that must be more than {@code min}. */
    public SettingRanges above(String property, double value, double min) {
        if (!(value > min)) {
            problems.add(named(property) + " must be more than " + plain(min) + ", not " + value);
        }
        return this;
    }

    /** A share: more than 0 and at most 1. */
    public SettingRanges share(String property, double value) {
        if (!(value > 0 && value <= 1)) {
            problems.add(named(property) + " must be more than 0 and at most 1, not " + value);
        }
        return this;
    }

    /** A problem no range states (a name that is not known, two values in the wrong order). */
    public SettingRanges problem(String property, String mustBe) {
        problems.add(named(property) + " " + mustBe);
        return this;
    }

    /** A property of ours with the environment variable that sets it: what an operator set is what the message names. */
    private static String named(String property) {
        return property.startsWith("quaestor.") && !property.contains(" ")
                ? property + " (" + property.toUpperCase(java.util.Locale.ROOT).replaceAll("[^A-Z0-9]", "_") + ")" : property;
    }

    /** A duration as it is written in the configuration: 10s, 1m30s, 0s. */
    private static String shown(Duration d) {
        return d.toString().substring(2).toLowerCase(java.util.Locale.ROOT);
    }

    private static String plain(double d) {
        return d == Math.rint(d) ? Long.toString((long) d) : Double.toString(d);
    }

    /** Each property out of its range, with the range it must be in; empty when all are in range. */
    public List<String> problems() {
        return List.copyOf(problems);
    }
}
