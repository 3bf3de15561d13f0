package dev.quaestor.policy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Optional;

/**
 * Whether an entry of a policy directory whose name is not ignored ({@link PolicyFileName}) can be read as a policy file:
 * a regular file, directly or through symbolic links (a ConfigMap volume's names are links into {@code ..data}), that
 * this process may read. A link that leads nowhere or to something else, a pipe or device, or a file it may not read
 * would otherwise drop its rules (a deny among them) in silence, so it refuses the set, saying what is wrong. A
 * directory, not a link to one, is not mistakable for a file and is left alone.
 */
final class PolicyFileEntry {

    private PolicyFileEntry() {
    }

    /** A directory itself (not a link to one): never read, never refused. */
    static boolean isDirectory(Path entry) {
        return Files.isDirectory(entry, LinkOption.NOFOLLOW_LINKS);
    }

    /** What keeps {@code entry} from being read as a policy file, or empty if nothing does. */
    static Optional<String> problem(Path entry) {
        if (Files.isSymbolicLink(entry)) {
            String link = "a symbolic link to " + target(entry);
            try {
                entry.toRealPath();
            } catch (NoSuchFileException e) {
                return Optional.of(link + ", which does not exist (a dangling link)");
            } catch (IOException e) {
                return Optional.of(link + ", which cannot be followed (" + e.getMessage() + ")");
            }
            if (!Files.isRegularFile(entry)) {
                return Optional.of(link + ", which is not a regular file but " + kind(entry));
            }
        } else if (!Files.isRegularFile(entry, LinkOption.NOFOLLOW_LINKS)) {
            return Optional.of("not a regular file but " + kind(entry));
        }
        if (!Files.isReadable(entry)) {
            return Optional.of("unreadable: this process has no permission to read it");
        }
        return Optional.empty();
    }

    private static String target(Path link) {
        try {
            return Files.readSymbolicLink(link).toString();
        } catch (IOException e) {
            return "(unreadable link: " + e.getMessage() + ")";
        }
    }

    private static String kind(Path entry) {
        try {
            var a = Files.readAttributes(entry, BasicFileAttributes.class);
            return a.isDirectory() ? "a directory" : a.isOther() ? "a pipe, socket or device" : "neither a file nor a directory";
        } catch (IOException e) {
            return "something that cannot be read (" + e.getMessage() + ")";
        }
    }
}
