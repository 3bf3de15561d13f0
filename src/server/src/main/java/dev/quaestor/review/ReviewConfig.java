package dev.quaestor.review;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.Duration;
import java.time.LocalTime;
import java.util.List;

@ConfigMapping(prefix = "quaestor.review")
public interface ReviewConfig {

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

    /** After start-up, produce the previous day's review if no replica has (a replica down at the cron's time). */
    @WithDefault("true")
    boolean catchUp();

    /** How long after start-up the catch-up runs. */
    @WithDefault("30S")
    Duration catchUpDelay();

    /** A review is overdue when it is not signed off this long after the end of the day it reviews. */
    @WithDefault("24H")
    Duration signOffWithin();

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
    }
}
