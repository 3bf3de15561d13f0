package dev.quaestor.provider;

import dev.quaestor.uri.CanonicalUri;
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
                "mount '" + name + "' (" + type + ") needs quaestor.mounts." + name + "." + key));
    }

    public long longSetting(String key, long defaultValue) {
        return setting(key).map(Long::parseLong).orElse(defaultValue);
    }
}
