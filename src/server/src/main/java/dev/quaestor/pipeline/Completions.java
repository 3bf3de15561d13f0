package dev.quaestor.pipeline;

import java.util.List;

/** Values proposed for one template argument, each one the caller may read; {@code more} when some were left out. */
public record Completions(List<String> values, boolean more) {
}
