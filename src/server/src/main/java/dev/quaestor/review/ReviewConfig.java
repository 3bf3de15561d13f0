package dev.quaestor.review;

import dev.quaestor.settings.RangeChecked;
import dev.quaestor.settings.SettingRanges;
import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.DateTimeException;
import java.time.DayOfWeek;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalTime;
import java.time.ZoneId;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

@ConfigMapping(prefix = "quaestor.review")
public interface ReviewConfig extends RangeChecked {

    /** Produce the daily review at all. */
    @WithDefault("true")
    boolean enabled();

    /** When the job runs (Quartz cron, in {@link #zone()}): daily, a quarter past midnight. */
    @WithDefault("0 15 0 * * ?")
    String cron();

    /**
     * The organisation's time zone (an IANA name such as Europe/Zurich): the calendar days reviewed, and the zone in
     * which {@link #cron()} and the working hours are read. Unset: the console's ({@code quaestor.console.time-zone}),
     * else UTC.
     */
    @WithDefault("${quaestor.console.time-zone:UTC}")
    String zone();

    /**
     * After start-up, produce the missing reviews of the last {@link #catchUpDays()} days, as each run of the job does
     * (a replica down at the cron's time).
     */
    @WithDefault("true")
    boolean catchUp();

    /**
     * Each run of the job (and the catch-up after start-up) produces the review of every day of this many before today
     * that has none, oldest first, none before the audit log's first record; a missing day among them past its
     * deadline counts in {@code quaestor_review_overdue}.
     */
    @WithDefault("30")
    int catchUpDays();

    /** How long after start-up the catch-up runs. */
    @WithDefault("30S")
    Duration catchUpDelay();

    /** A review is overdue when it is not signed off this long after the end of the day it reviews. */
    @WithDefault("24H")
    Duration signOffWithin();

    /** When the review of {@code day} is overdue if not signed off: {@link #signOffWithin()} after the day's end. */
    default Instant deadlineOf(LocalDate day) {
        return day.plusDays(1).atStartOfDay(ZoneId.of(zone())).toInstant().plus(signOffWithin());
    }

    /** A run that claimed a day but did not finish within this is taken over by the next replica that tries. */
    @WithDefault("30M")
    Duration staleRunAfter();

    /**
     * A read spike: distinct resources read in a day above this many times the person's usual day (the median of the
     * days they read anything in the last {@link #baselineDays()})...
     */
    @WithDefault("4")
    double spikeFactor();

    /** ...and at least this many distinct resources in the day (no spike below it, whatever the baseline). */
    @WithDefault("30")
    int spikeMinimum();

    /**
     * Days with reads a person needs in the baseline window before their own baseline is used; with fewer (someone
     * new), the day is compared with their peers' usual day instead.
     */
    @WithDefault("10")
    int spikeHistoryDays();

    /** Days in the baseline window before the day reviewed. */
    @WithDefault("30")
    int baselineDays();

    /** Reads outside the working hours flag a person from this many in a day. */
    @WithDefault("5")
    int offHoursMinimum();

    /** Reads outside these hours (in {@link #zone()}) are listed. */
    WorkingHours workingHours();

    interface WorkingHours {
        @WithDefault("07:00")
        LocalTime from();

        @WithDefault("19:00")
        LocalTime to();

        /** Days on which reads are expected (mon, tue, …). */
        @WithDefault("mon,tue,wed,thu,fri")
        List<String> days();

        /** The days {@link #days()} names; a name that is none of them refuses the start. */
        default Set<DayOfWeek> daysOfWeek() {
            Set<DayOfWeek> out = EnumSet.noneOf(DayOfWeek.class);
            for (String name : days()) {
                DayOfWeek d = day(name);
                if (d != null) {
                    out.add(d);
                }
            }
            return out;
        }

        /** The day a name in {@link #days()} means, or null. */
        static DayOfWeek day(String name) {
            return DAY_NAMES.get(name.trim().toLowerCase(Locale.ROOT));
        }

        Map<String, DayOfWeek> DAY_NAMES = Map.of("mon", DayOfWeek.MONDAY, "tue", DayOfWeek.TUESDAY,
                "wed", DayOfWeek.WEDNESDAY, "thu", DayOfWeek.THURSDAY, "fri", DayOfWeek.FRIDAY,
                "sat", DayOfWeek.SATURDAY, "sun", DayOfWeek.SUNDAY);
    }

    /**
     * Durations more than 0 ({@code catch-up-delay} may be 0), counts at least 1, a spike factor above 1 (at 1 half of
     * anyone's days would be a spike), a time zone Java knows, working hours that start before they end (on the same
     * day), and only the day names {@code mon} to {@code sun}: a misspelt zone or day would otherwise be found only by
     * the night's review, or not at all.
     */
    @Override
    default void checkRanges(SettingRanges r) {
        String p = "quaestor.review.";
        r.notNegative(p + "catch-up-delay", catchUpDelay())
                .positive(p + "sign-off-within", signOffWithin())
                .positive(p + "stale-run-after", staleRunAfter())
                .above(p + "spike-factor", spikeFactor(), 1)
                .atLeast(p + "catch-up-days", catchUpDays(), 1)
                .atLeast(p + "spike-minimum", spikeMinimum(), 1)
                .atLeast(p + "spike-history-days", spikeHistoryDays(), 1)
                .atLeast(p + "baseline-days", baselineDays(), 1)
                .atLeast(p + "off-hours-minimum", offHoursMinimum(), 1);
        try {
            ZoneId.of(zone());
        } catch (DateTimeException e) {
            r.problem(p + "zone", "must be a time zone such as Europe/Zurich or UTC, not " + zone());
        }
        WorkingHours hours = workingHours();
        if (!hours.from().isBefore(hours.to())) {
            r.problem(p + "working-hours.from", "must be before " + p + "working-hours.to (" + hours.to() + "), not "
                    + hours.from());
        }
        for (String name : hours.days()) {
            if (WorkingHours.day(name) == null) {
                r.problem(p + "working-hours.days", "must name days as mon, tue, wed, thu, fri, sat or sun, not " + name);
            }
        }
    }
}
