package dev.quaestor.provider.filesystem;

import dev.quaestor.provider.Mount;
import dev.quaestor.provider.ResourceProvider;
import dev.quaestor.provider.ResourceProviderFactory;
import jakarta.enterprise.context.ApplicationScoped;

@ApplicationScoped
public class FilesystemProviderFactory implements ResourceProviderFactory {

    @Override
    public String type() {
        return "filesystem";
    }

    @Override
    public ResourceProvider create(Mount mount) {
        var provider = new FilesystemProvider(mount);
        provider.startIndexing(); // built while the server starts, so that no listing waits for it
        return provider;
    }
}
