package dev.quaestor.provider.statics;

import dev.quaestor.provider.Mount;
import dev.quaestor.provider.ResourceProvider;
import dev.quaestor.provider.ResourceProviderFactory;
import jakarta.enterprise.context.ApplicationScoped;

@ApplicationScoped
public class StaticProviderFactory implements ResourceProviderFactory {

    @Override
    public String type() {
        return "static";
    }

    @Override
    public ResourceProvider create(Mount mount) {
        return StaticProvider.load(mount);
    }
}
