package dev.quaestor.provider.git;

import java.io.File;
import org.eclipse.jgit.lib.Config;
import org.eclipse.jgit.storage.file.FileBasedConfig;
import org.eclipse.jgit.util.FS;
import org.eclipse.jgit.util.SystemReader;

/**
 * Keeps JGit from reaching outside the repository it serves. JGit's default system reader finds
 * the system git config by running the {@code git} executable and reads {@code ~/.gitconfig} and
 * {@code GIT_*} environment variables (such as {@code GIT_SSH}, which makes it run an external
 * ssh). This reader gives JGit empty system and user configuration and hides every {@code GIT_*}
 * variable, so the only configuration that applies is the repository's own, and no process is
 * ever started. Installed once, JVM-wide, before the first repository is opened.
 */
final class GitIsolation {

    private static volatile boolean installed;

    private GitIsolation() {
    }

    static synchronized void install() {
        if (installed) {
            return;
        }
        SystemReader.setInstance(new Isolated(SystemReader.getInstance()));
        installed = true;
    }

    private static final class Isolated extends SystemReader.Delegate {

        Isolated(SystemReader delegate) {
            super(delegate);
        }

        @Override
        public String getenv(String variable) {
            return variable != null && variable.startsWith("GIT_") ? null : super.getenv(variable);
        }

        @Override
        public FileBasedConfig openSystemConfig(Config parent, FS fs) {
            return empty(parent, fs);
        }

        @Override
        public FileBasedConfig openUserConfig(Config parent, FS fs) {
            return empty(parent, fs);
        }

        @Override
        public FileBasedConfig openJGitConfig(Config parent, FS fs) {
            return empty(parent, fs);
        }

        private static FileBasedConfig empty(Config parent, FS fs) {
            return new FileBasedConfig(parent, (File) null, fs) {
                @Override
                public void load() {
                    // nothing outside the repository is read
                }

                @Override
                public boolean isOutdated() {
                    return false;
                }
            };
        }
    }
}
