package dev.quaestor.policy;

import java.time.DayOfWeek;
import java.time.Instant;
import java.time.LocalTime;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.util.Set;

/**
 * Days of the week and a time of day, in a time zone. {@code from} is inclusive and {@code to}
 * exclusive; a window whose {@code to} is not after {@code from} runs past midnight (22:00-06:00),
 * and the day that counts is the day it started.
 */
public record TimeWindow(Set<DayOfWeek> days, LocalTime from, LocalTime to, ZoneId zone) {

    public TimeWindow {
        days = Set.copyOf(days);
    }

    public boolean contains(Instant instant) {
        if (instant == null) {
            return false;
        }
        ZonedDateTime t = instant.atZone(zone);
        LocalTime time = t.toLocalTime();
        if (from.isBefore(to)) {
            return days.contains(t.getDayOfWeek()) && !time.isBefore(from) && time.isBefore(to);
        }
        if (!time.isBefore(from)) {
            return days.contains(t.getDayOfWeek());
        }
        return time.isBefore(to) && days.contains(t.getDayOfWeek().minus(1));
    }
}
