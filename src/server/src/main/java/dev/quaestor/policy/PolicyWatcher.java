package dev.quaestor.policy;

import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.io.IOException;
import java.nio.file.FileSystems;
import java.nio.file.StandardWatchEventKinds;
import java.nio.file.WatchService;
import java.util.concurrent.TimeUnit;
import org.jboss.logging.Logger;

/**
 * Reloads the policy directory when it changes. A file-system watch gives sub-second pickup,
 * including Kubernetes ConfigMap volumes (which swap a {@code ..data} symlink: an event in the
 * directory itself); a periodic re-read covers file systems that raise no events.
 */
@ApplicationScoped
public class PolicyWatcher {

    private static final Logger LOG = Logger.getLogger(PolicyWatcher.class);
    /** Editors write a file in several steps; wait for them to settle before reading. */
    private static final long SETTLE_MS = 200;

    private final PolicyStore store;
    private final PolicyConfig config;
    private volatile boolean running;
    private Thread thread;

    PolicyWatcher(PolicyStore store, PolicyConfig config) {
        this.store = store;
        this.config = config;
    }

    void start(@Observes StartupEvent ev) {
        if (!config.watch()) {
            return;
        }
        running = true;
        thread = new Thread(this::run, "quaestor-policy-watcher");
        thread.setDaemon(true);
        thread.start();
    }

    void stop(@Observes ShutdownEvent ev) {
        running = false;
        if (thread != null) {
            thread.interrupt();
        }
    }

    private void run() {
        WatchService watch = null;
        try {
            watch = FileSystems.getDefault().newWatchService();
            store.directory().register(watch, StandardWatchEventKinds.ENTRY_CREATE, StandardWatchEventKinds.ENTRY_MODIFY,
                    StandardWatchEventKinds.ENTRY_DELETE);
        } catch (IOException e) {
            LOG.warnf("cannot watch %s (%s); falling back to re-reading it every %s", store.directory(), e.getMessage(),
                    config.pollInterval());
        }
        long pollMs = config.pollInterval().toMillis();
        while (running) {
            try {
                String how = PolicyChange.RELOAD;
                if (watch != null) {
                    var key = watch.poll(pollMs, TimeUnit.MILLISECONDS);
                    if (key != null) {
                        Thread.sleep(SETTLE_MS);
                        key.pollEvents();
                        key.reset();
                        how = PolicyChange.FILE_CHANGE;
                    }
                } else {
                    Thread.sleep(pollMs);
                }
                store.reload(how);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            } catch (RuntimeException e) {
                LOG.errorf(e, "policy reload failed");
            }
        }
    }
}
