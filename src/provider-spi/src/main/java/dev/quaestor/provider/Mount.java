package dev.quaestor.provider;

import dev.quaestor.uri.CanonicalUri;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;

/**
 * One configured mount: the URI prefix clients see and the provider settings behind it
 * ({@code quaestor.mounts.<name>.*}; provider-specific keys under {@code options.*} as well).
 */
public record Mount(String name, String type, CanonicalUri prefix, String prefixText, Map<String, String> settings) {

    public Mount {
        settings = Map.copyOf(settings);
    }

    public Optional<String> setting(String key) {
        return Optional.ofNullable(settings.get(key));
    }

    public String requireSetting(String key) {
        return setting(key).orElseThrow(() -> new IllegalArgumentException(
                "mount '" + name + "' (" + type + ") needs " + propertyName(key)));
    }

    public long longSetting(String key, long defaultValue) {
        return setting(key).map(Long::parseLong).orElse(defaultValue);
    }

    public boolean booleanSetting(String key, boolean defaultValue) {
        return setting(key).map(v -> switch (v.trim().toLowerCase(java.util.Locale.ROOT)) {
            case "true" -> true;
            case "false" -> false;
            default -> throw invalid(key, v, "true or false");
        }).orElse(defaultValue);
    }

    /**
     * A duration as Quarkus writes them ({@code 500ms}, {@code 10s}, {@code 5m}, {@code 1h}, a bare
     * number of seconds) or in ISO-8601 ({@code PT5M}).
     */
    public Duration durationSetting(String key, Duration defaultValue) {
        return setting(key).map(v -> parseDuration(key, v.trim())).orElse(defaultValue);
    }

    private Duration parseDuration(String key, String v) {
        try {
            if (v.startsWith("P") || v.startsWith("p")) {
                return Duration.parse(v);
            }
            var m = java.util.regex.Pattern.compile("(\\d+)(ms|s|m|h|d)?").matcher(v.toLowerCase(java.util.Locale.ROOT));
            if (m.matches()) {
                long n = Long.parseLong(m.group(1));
                String unit = m.group(2) == null ? "s" : m.group(2);
                return switch (unit) {
                    case "ms" -> Duration.ofMillis(n);
                    case "m" -> Duration.ofMinutes(n);
                    case "h" -> Duration.ofHours(n);
                    case "d" -> Duration.ofDays(n);
                    default -> Duration.ofSeconds(n);
                };
            }
        } catch (RuntimeException e) {
            // fall through to the message below
        }
        throw invalid(key, v, "a duration such as 500ms, 10s, 5m or PT5M");
    }

    private IllegalArgumentException invalid(String key, String value, String expected) {
        return new IllegalArgumentException("mount '" + name + "' (" + type + "): " + propertyName(key) + "="
                + value + " is not " + expected);
    }

    /** The configuration property a setting comes from. */
    public String propertyName(String key) {
        boolean top = key.equals("root") || key.equals("file") || key.equals("repository") || key.equals("max-bytes")
                || key.equals("ttl-ms");
        return "quaestor.mounts." + name + "." + (top ? "" : "options.") + key;
    }
}
