package dev.quaestor.provider.git;

import java.util.Arrays;
import org.eclipse.jgit.treewalk.TreeWalk;
import org.eclipse.jgit.treewalk.filter.TreeFilter;

/**
 * A recursive tree walk's seek to a listing's cursor: only paths after {@code after} (in git's path order, the
 * unsigned byte order of the full path), and only the subtrees that can hold one, so that the walk enters no
 * directory wholly before the cursor. A page then costs the entries along the cursor's path and the page itself,
 * not the tree before it.
 */
final class PathsAfter extends TreeFilter {

    private final byte[] after;

    PathsAfter(byte[] after) {
        this.after = after;
    }

    @Override
    public boolean include(TreeWalk walker) {
        byte[] path = walker.getRawPath();
        if (!walker.isSubtree()) {
            return Arrays.compareUnsigned(path, after) > 0;
        }
        // Every path below the subtree starts with path + '/': some may follow the cursor if the cursor lies below
        // the subtree or the subtree's paths all sort after it.
        byte[] dir = Arrays.copyOf(path, path.length + 1);
        dir[path.length] = '/';
        return startsWith(after, dir) || Arrays.compareUnsigned(dir, after) > 0;
    }

    private static boolean startsWith(byte[] a, byte[] prefix) {
        return a.length >= prefix.length && Arrays.equals(a, 0, prefix.length, prefix, 0, prefix.length);
    }

    @Override
    public boolean shouldBeRecursive() {
        return true;
    }

    @Override
    public TreeFilter clone() {
        return this;
    }
}
