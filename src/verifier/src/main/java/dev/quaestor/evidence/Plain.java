package dev.quaestor.evidence;

import java.util.Locale;

/** Numbers as people read them in messages: 1,234,567. */
public final class Plain {

    private Plain() {
    }

    public static String n(long value) {
        return String.format(Locale.ENGLISH, "%,d", value);
    }
}
