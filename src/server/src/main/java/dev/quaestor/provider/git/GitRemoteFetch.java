package dev.quaestor.provider.git;

import java.net.URISyntaxException;
import java.time.Duration;
import java.util.Locale;
import java.util.Set;
import org.eclipse.jgit.api.Git;
import org.eclipse.jgit.api.errors.GitAPIException;
import org.eclipse.jgit.lib.Repository;
import org.eclipse.jgit.lib.SubmoduleConfig;
import org.eclipse.jgit.transport.RefSpec;
import org.eclipse.jgit.transport.URIish;

/**
 * One fetch of branches and tags from a remote into the served repository, which is then a
 * mirror: {@code refs/heads/*} and {@code refs/tags/*} are overwritten (forced) and deleted as on
 * the remote. Only {@code http}, {@code https} and {@code file} remotes (or a local path) are
 * accepted: ssh would need keys and may start an external program. The upload-pack program is
 * pinned to JGit's in-process one, so a local remote never forks either; submodules are not
 * fetched; no hooks run (JGit runs none on fetch).
 *
 * <p>{@link #fetch} is the one call that talks to the network, kept on its own so that the caller
 * can put it under a circuit breaker and a time limit.
 */
public final class GitRemoteFetch {

    private static final Set<String> SCHEMES = Set.of("http", "https", "file");

    private final Repository repo;
    private final URIish remote;
    private final int timeoutSeconds;

    GitRemoteFetch(Repository repo, String remote, Duration timeout) {
        this.repo = repo;
        this.remote = parse(remote);
        this.timeoutSeconds = (int) Math.max(1, Math.min(Integer.MAX_VALUE, timeout.toSeconds()));
    }

    static URIish parse(String remote) {
        URIish u;
        try {
            u = new URIish(remote);
        } catch (URISyntaxException e) {
            throw new IllegalArgumentException("remote " + remote + " is not a git URL");
        }
        String scheme = u.getScheme() == null ? "file" : u.getScheme().toLowerCase(Locale.ROOT);
        if (!SCHEMES.contains(scheme) || (u.getScheme() == null && u.getHost() != null)) {
            throw new IllegalArgumentException("remote " + remote + ": only http, https and file remotes are supported");
        }
        return u;
    }

    /** Fetches once; throws {@link GitFetchException} if the remote cannot be reached or read. */
    public void fetch() {
        try (Git git = Git.wrap(repo)) {
            git.fetch()
                    .setRemote(remote.toString())
                    .setRefSpecs(new RefSpec("+refs/heads/*:refs/heads/*"), new RefSpec("+refs/tags/*:refs/tags/*"))
                    .setRemoveDeletedRefs(true)
                    .setCheckFetchedObjects(true)
                    .setRecurseSubmodules(SubmoduleConfig.FetchRecurseSubmodulesMode.NO)
                    .setTimeout(timeoutSeconds)
                    .setTransportConfigCallback(t -> t.setOptionUploadPack("git-upload-pack"))
                    .call();
        } catch (GitAPIException | RuntimeException e) {
            throw new GitFetchException("fetch from " + remote.toString() + " failed: " + e.getMessage(), e);
        }
    }

    public String remote() {
        return remote.toString();
    }

    /** A fetch that did not complete. */
    public static final class GitFetchException extends RuntimeException {
        GitFetchException(String message, Throwable cause) {
            super(message, cause);
        }
    }
}
