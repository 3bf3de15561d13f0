package dev.quaestor.support;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.Map;

/**
 * The PostgreSQL server the tests use, resolved once per JVM: the one at the test address (127.0.0.1:5432 unless
 * {@code QUAESTOR_TEST_PG_HOST} / {@code QUAESTOR_TEST_PG_PORT} or the system properties {@code quaestor.test.pg-host}
 * / {@code quaestor.test.pg-port} say otherwise) if it answers with trust authentication for {@code postgres}, else
 * a {@link PrivateCluster} started from the installed server programs and stopped at JVM exit. Everything that talks
 * to the tests' database (JDBC URLs, server processes' environments, psql scripts) takes its address from here.
 */
public final class TestPostgres {

    public static final String SUPERUSER = "postgres";

    /*
     * Quarkus loads test classes and test resources in more than one class loader, so a static field alone would not
     * make this JVM-wide: the resolved address is published as a system property, and resolution synchronizes on a
     * string literal, which is interned once per JVM whatever loads this class.
     */
    private static final String RESOLVED_PROPERTY = "quaestor.test.pg.resolved";
    private static final String LOCK = "dev.quaestor.support.TestPostgres.lock";
    private static volatile TestPostgres instance;

    private final String host;
    private final int port;

    private TestPostgres(String host, int port) {
        this.host = host;
        this.port = port;
    }

    /** The server for this JVM, found or started on first use. */
    public static TestPostgres get() {
        TestPostgres resolved = instance;
        if (resolved != null) {
            return resolved;
        }
        synchronized (LOCK) {
            if (instance == null) {
                String published = System.getProperty(RESOLVED_PROPERTY);
                instance = published != null ? parse(published) : resolve();
                System.setProperty(RESOLVED_PROPERTY, instance.host + ":" + instance.port);
            }
            return instance;
        }
    }

    public String host() {
        return host;
    }

    public int port() {
        return port;
    }

    /** The JDBC URL of {@code database} on this server. */
    public String jdbcUrl(String database) {
        return "jdbc:postgresql://" + host + ":" + port + "/" + database;
    }

    /** A superuser connection to the maintenance database {@code postgres} (to create and drop databases). */
    public Connection admin() throws SQLException {
        return DriverManager.getConnection(jdbcUrl("postgres"), SUPERUSER, "");
    }

    /** libpq's variables for psql and scripts, as the superuser on {@code database}. */
    public Map<String, String> libpqEnvironment(String database) {
        return Map.of("PGHOST", host, "PGPORT", Integer.toString(port), "PGUSER", SUPERUSER, "PGDATABASE", database);
    }

    private static TestPostgres resolve() {
        String host = setting("quaestor.test.pg-host", "QUAESTOR_TEST_PG_HOST", "127.0.0.1");
        int port = Integer.parseInt(setting("quaestor.test.pg-port", "QUAESTOR_TEST_PG_PORT", "5432"));
        var configured = new TestPostgres(host, port);
        String problem = configured.whyUnusable();
        if (problem == null) {
            return configured;
        }
        String unusable = "No usable PostgreSQL at " + host + ":" + port + " (" + problem + ")";
        PostgresBinaries binaries = PostgresBinaries.find().orElseThrow(() -> new IllegalStateException(unusable
                + ", and no PostgreSQL server programs (initdb, pg_ctl) to start a private cluster with (looked in "
                + PostgresBinaries.SEARCHED + "). Install them (Debian/Ubuntu: apt-get install postgresql), or run a"
                + " PostgreSQL there with trust auth for user postgres (docs/operations.md, \"Tests and CI\")"));
        PrivateCluster cluster;
        try {
            cluster = PrivateCluster.start(binaries);
        } catch (Exception e) {
            if (e instanceof InterruptedException) {
                Thread.currentThread().interrupt();
            }
            throw new IllegalStateException(unusable + ", and a private cluster from " + binaries.bin()
                    + " did not start: " + e.getMessage(), e);
        }
        Runtime.getRuntime().addShutdownHook(new Thread(cluster::stop, "private-postgres-stop"));
        var started = new TestPostgres(cluster.host(), cluster.port());
        System.out.println("INFO: no usable PostgreSQL at " + host + ":" + port + " (" + problem + "); started a private"
                + " cluster (" + started.serverVersion() + ") on " + cluster.host() + ":" + cluster.port() + " in "
                + cluster.directory() + ", stopped and deleted at JVM exit");
        return started;
    }

    /** Null if a trusted superuser connection works, else why not. */
    private String whyUnusable() {
        try (Connection c = DriverManager.getConnection(jdbcUrl("postgres") + "?connectTimeout=5", SUPERUSER, "")) {
            return null;
        } catch (SQLException e) {
            String m = String.valueOf(e.getMessage());
            int sentence = m.indexOf(". ");
            return sentence > 0 ? m.substring(0, sentence) : m;
        }
    }

    private String serverVersion() {
        try (Connection c = admin(); var rs = c.createStatement().executeQuery("SHOW server_version")) {
            rs.next();
            return "PostgreSQL " + rs.getString(1);
        } catch (SQLException e) {
            throw new IllegalStateException("the private PostgreSQL cluster on port " + port + " does not answer", e);
        }
    }

    private static TestPostgres parse(String hostPort) {
        int colon = hostPort.lastIndexOf(':');
        return new TestPostgres(hostPort.substring(0, colon), Integer.parseInt(hostPort.substring(colon + 1)));
    }

    private static String setting(String property, String env, String fallback) {
        String v = System.getProperty(property);
        if (v == null || v.isBlank()) {
            v = System.getenv(env);
        }
        return v == null || v.isBlank() ? fallback : v.trim();
    }
}
