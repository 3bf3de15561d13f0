/**
 * What every configuration group shares and nothing else: the allowed ranges of its numbers and durations
 * ({@link dev.quaestor.settings.SettingRanges}). It depends on no other package of the server, so any group, whatever
 * its floor, can state its ranges without an arrow back up; the start is refused by {@code startup} when one is out of
 * range.
 */
package dev.quaestor.settings;
