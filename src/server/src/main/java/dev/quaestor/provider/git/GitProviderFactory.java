package dev.quaestor.provider.git;

import dev.quaestor.provider.Mount;
import dev.quaestor.provider.ResourceProvider;
import dev.quaestor.provider.ResourceProviderFactory;
import jakarta.enterprise.context.ApplicationScoped;
import java.io.File;
import java.io.IOException;
import org.eclipse.jgit.lib.Repository;
import org.eclipse.jgit.lib.RepositoryCache;
import org.eclipse.jgit.storage.file.FileRepositoryBuilder;
import org.eclipse.jgit.storage.file.WindowCacheConfig;
import org.eclipse.jgit.util.FS;

/**
 * Provider type {@code git}: {@code quaestor.mounts.<name>.repository} is a local bare repository
 * or a working copy (its {@code .git} is used, its files are not).
 */
@ApplicationScoped
public class GitProviderFactory implements ResourceProviderFactory {

    @Override
    public String type() {
        return "git";
    }

    @Override
    public ResourceProvider create(Mount mount) {
        return new GitProvider(mount, open(mount));
    }

    private static boolean streamThresholdSet;

    /**
     * JGit inflates any object below its stream threshold (50 MiB by default) whole into memory when
     * it is opened. Lowered to {@link GitProvider#IN_MEMORY_LIMIT} once, JVM-wide (JGit's window cache
     * settings are global), so a large blob is always inflated as it is streamed.
     */
    private static synchronized void streamLargeObjects() {
        if (!streamThresholdSet) {
            var cache = new WindowCacheConfig();
            cache.setStreamFileThreshold(GitProvider.IN_MEMORY_LIMIT);
            cache.install();
            streamThresholdSet = true;
        }
    }

    static Repository open(Mount mount) {
        GitIsolation.install();
        streamLargeObjects();
        File dir = new File(mount.requireSetting("repository"));
        File gitDir = RepositoryCache.FileKey.resolve(dir, FS.DETECTED);
        if (gitDir == null) {
            throw new IllegalArgumentException("mount '" + mount.name() + "': " + dir + " is not a git repository");
        }
        try {
            // No readEnvironment(): GIT_DIR and friends must not redirect a mount.
            return new FileRepositoryBuilder().setGitDir(gitDir).setMustExist(true).build();
        } catch (IOException e) {
            throw new IllegalArgumentException("mount '" + mount.name() + "': cannot open " + dir + ": " + e.getMessage());
        }
    }
}
