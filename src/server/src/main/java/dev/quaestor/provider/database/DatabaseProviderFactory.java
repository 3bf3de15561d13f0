package dev.quaestor.provider.database;

import dev.quaestor.provider.Mount;
import dev.quaestor.provider.ResourceProvider;
import dev.quaestor.provider.ResourceProviderFactory;
import io.agroal.api.AgroalDataSource;
import io.agroal.api.configuration.supplier.AgroalDataSourceConfigurationSupplier;
import io.agroal.api.security.NamePrincipal;
import io.agroal.api.security.SimplePassword;
import io.quarkus.agroal.DataSource;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Any;
import jakarta.enterprise.inject.Default;
import jakarta.enterprise.inject.Instance;
import java.sql.SQLException;
import java.time.Duration;

/**
 * Provider type {@code database}. The mount names a Quarkus datasource ({@code options.datasource},
 * {@code <default>} for the default one), or gives JDBC settings ({@code options.jdbc-url},
 * {@code options.username}, {@code options.password}, {@code options.pool-size}) for a small pool
 * of its own. The audit log's own datasources ({@code quaestor.db.reserved-datasources}) cannot be named.
 */
@ApplicationScoped
public class DatabaseProviderFactory implements ResourceProviderFactory {

    private final Instance<AgroalDataSource> dataSources;
    private final java.util.Set<String> reserved;

    /** {@code reserved}: datasources no mount may name (the audit log's own pools). */
    DatabaseProviderFactory(@Any Instance<AgroalDataSource> dataSources,
            @org.eclipse.microprofile.config.inject.ConfigProperty(name = "quaestor.db.reserved-datasources",
                    defaultValue = "audit-writer,audit-read") java.util.List<String> reserved) {
        this.dataSources = dataSources;
        this.reserved = java.util.Set.copyOf(reserved);
    }

    @Override
    public String type() {
        return "database";
    }

    /** Reads go over the network to a database, so mounts of this type get a circuit breaker by default. */
    @Override
    public boolean remote() {
        return true;
    }

    @Override
    public ResourceProvider create(Mount mount) {
        var named = mount.setting("datasource");
        var url = mount.setting("jdbc-url");
        if (named.isPresent() == url.isPresent()) {
            throw new IllegalArgumentException("mount '" + mount.name() + "' needs exactly one of "
                    + mount.propertyName("datasource") + " or " + mount.propertyName("jdbc-url"));
        }
        if (named.isPresent()) {
            String name = named.get().trim();
            if (reserved.contains(name)) {
                throw new IllegalArgumentException("mount '" + mount.name() + "': the datasource '" + name
                        + "' is reserved for the server's own use (quaestor.db.reserved-datasources); name <default> or another datasource");
            }
            Instance<AgroalDataSource> ds = name.equals("<default>") ? dataSources.select(Default.Literal.INSTANCE)
                    : dataSources.select(new DataSource.DataSourceLiteral(name));
            if (!ds.isResolvable()) {
                throw new IllegalArgumentException("mount '" + mount.name() + "': no datasource named '" + name
                        + "' (configure quarkus.datasource." + name + ".*)");
            }
            AgroalDataSource shared = ds.get();
            int poolSize = shared.getConfiguration().connectionPoolConfiguration().maxSize();
            int share = (int) mount.longSetting("max-connections", Math.max(1, poolSize / 2));
            if (share < 1 || share >= poolSize) {
                throw new IllegalArgumentException("mount '" + mount.name() + "': " + mount.propertyName("max-connections")
                        + " must be from 1 to " + (poolSize - 1) + ", below the size of the datasource '" + name
                        + "' it shares (" + poolSize + "), so that its other users always find a connection");
            }
            return new DatabaseProvider(mount, shared, share, null);
        }
        AgroalDataSource pool = pool(mount, url.get());
        return new DatabaseProvider(mount, pool, 0, pool);
    }

    private static AgroalDataSource pool(Mount mount, String url) {
        int size = (int) mount.longSetting("pool-size", 4);
        var config = new AgroalDataSourceConfigurationSupplier()
                .connectionPoolConfiguration(cp -> cp.maxSize(size).acquisitionTimeout(Duration.ofSeconds(5))
                        .connectionFactoryConfiguration(cf -> {
                            cf.jdbcUrl(url);
                            mount.setting("username").ifPresent(u -> cf.principal(new NamePrincipal(u)));
                            mount.setting("password").ifPresent(p -> cf.credential(new SimplePassword(p)));
                            return cf;
                        }));
        try {
            return AgroalDataSource.from(config);
        } catch (SQLException e) {
            throw new IllegalArgumentException("mount '" + mount.name() + "': cannot set up a pool for " + url + ": "
                    + e.getMessage());
        }
    }
}
