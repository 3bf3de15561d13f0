package dev.quaestor.retention;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The directory a run writes its archive files to ({@code --out}), checked before the run does anything: a directory
 * it can write to, or one it can make in a directory that exists (the archive volume's mount point, say); a path
 * whose parent is missing is refused rather than made, since that is most often a volume that is not mounted.
 */
final class ArchiveDirectory {

    private ArchiveDirectory() {
    }

    /** What is wrong with {@code out} as the archive directory, or null if a run can write its files there. */
    static String problem(Path out) {
        if (Files.exists(out)) {
            if (!Files.isDirectory(out)) {
                return "--out " + out + " is not a directory";
            }
            return Files.isWritable(out) ? null : "--out " + out + ": this user cannot write to that directory";
        }
        Path parent = out.toAbsolutePath().getParent();
        if (parent == null || !Files.isDirectory(parent)) {
            return "--out " + out + " does not exist, nor does " + parent + " to make it in (is the archive volume mounted?)";
        }
        return Files.isWritable(parent) ? null : "--out " + out + " does not exist, and this user cannot make it in " + parent;
    }
}
