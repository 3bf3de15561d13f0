package dev.quaestor.provider;

import java.util.List;

/** One page of a listing; {@code nextCursor} is null on the last page and opaque to callers. */
public record Page<T>(List<T> items, String nextCursor) {

    public Page {
        items = List.copyOf(items);
    }
}
