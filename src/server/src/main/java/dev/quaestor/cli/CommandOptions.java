package dev.quaestor.cli;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * The {@code --name value} options of a policy command, read strictly: an option the command does not know, one given
 * twice or one without its value is bad usage, named, rather than ignored (a misspelt {@code --role} that is ignored
 * answers a different question than the one asked).
 */
public final class CommandOptions {

    /** What is wrong with the command line, in words for the person who typed it. */
    public static final class BadUsage extends IllegalArgumentException {
        public BadUsage(String message) {
            super(message);
        }
    }

    private CommandOptions() {
    }

    /** The options in {@code args} from index {@code first} on, each one of {@code known} (names without the dashes). */
    public static Map<String, String> parse(String[] args, int first, Set<String> known) {
        var options = new LinkedHashMap<String, String>();
        for (int i = first; i < args.length; i += 2) {
            String a = args[i];
            if (!a.startsWith("--") || a.length() == 2) {
                throw new BadUsage("'" + a + "' is not an option (options look like --name value)");
            }
            String name = a.substring(2);
            if (!known.contains(name)) {
                throw new BadUsage("unknown option " + a);
            }
            if (i + 1 >= args.length) {
                throw new BadUsage(a + " needs a value");
            }
            if (options.put(name, args[i + 1]) != null) {
                throw new BadUsage(a + " is given twice");
            }
        }
        return options;
    }
}
