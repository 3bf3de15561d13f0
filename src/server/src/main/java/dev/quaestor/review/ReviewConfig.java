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

    /** The time zone whose calendar days are reviewed, and in which {@link #cron()} and the working hours are read. */
    @WithDefault("UTC")
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

    /** Distinct resources read: flagged above this many times the subject's own trailing median... */
    @WithDefault("5")
    double spikeFactor();

    /** ...and only from this many distinct resources in the day. */
    @WithDefault("20")
    int spikeMinimum();

    /** Days in the trailing median. */
    @WithDefault("30")
    int baselineDays();

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
