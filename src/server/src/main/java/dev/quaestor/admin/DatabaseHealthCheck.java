package dev.quaestor.admin;

import io.agroal.api.AgroalDataSource;
import jakarta.enterprise.context.ApplicationScoped;
import java.sql.Connection;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Readiness;
import org.jboss.logging.Logger;

/**
 * Readiness of the database (audit log, sessions): UP when a connection of the pool answers. It replaces the
 * datasource check Quarkus would add (turned off by {@code quarkus.datasource.health.enabled=false}), whose data names
 * the datasource and, when it fails, the driver's error (host names, user names) to anyone who can reach the port:
 * here the failure goes to the log, for administrators, and readiness says only DOWN.
 */
@Readiness
@ApplicationScoped
public class DatabaseHealthCheck implements HealthCheck {

    private static final Logger LOG = Logger.getLogger(DatabaseHealthCheck.class);
    private final AgroalDataSource ds;

    DatabaseHealthCheck(AgroalDataSource ds) {
        this.ds = ds;
    }

    @Override
    public HealthCheckResponse call() {
        try (Connection c = ds.getConnection()) {
            if (c.isValid(3)) {
                return HealthCheckResponse.up("database");
            }
            LOG.warn("readiness: a database connection did not answer its validation");
        } catch (Exception e) {
            LOG.warnf("readiness: no database connection: %s", e.toString());
        }
        return HealthCheckResponse.down("database");
    }
}
