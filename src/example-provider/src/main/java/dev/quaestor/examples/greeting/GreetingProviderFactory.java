package dev.quaestor.examples.greeting;

import dev.quaestor.provider.Mount;
import dev.quaestor.provider.ResourceProvider;
import dev.quaestor.provider.ResourceProviderFactory;
import jakarta.enterprise.context.ApplicationScoped;

/**
 * The provider type {@code greeting}: a CDI bean, so any server with this jar on its class path can
 * mount it by configuration alone ({@code quaestor.mounts.<name>.provider=greeting}).
 */
@ApplicationScoped
public class GreetingProviderFactory implements ResourceProviderFactory {

    @Override
    public String type() {
        return "greeting";
    }

    @Override
    public ResourceProvider create(Mount mount) {
        return new GreetingProvider(mount);
    }
}
