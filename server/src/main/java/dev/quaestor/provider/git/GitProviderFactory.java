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

    static Repository open(Mount mount) {
        GitIsolation.install();
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
