package dev.quaestor.policy;

import java.util.Locale;

/** What a caller wants to do with a resource URI. */
public enum Action {
    LIST, READ, SUBSCRIBE;

    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static Action fromWireName(String s) {
        for (Action a : values()) {
            if (a.wireName().equals(s)) {
                return a;
            }
        }
        return null;
    }
}
