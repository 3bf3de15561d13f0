package dev.quaestor.audit.config;

/**
 * The names of the audit log's own connection pools (Quarkus datasources, configured in application.properties
 * with the default datasource's URL and credentials). The writer's pool is taken by nothing but the writer; the
 * read pool by audit reads only. Neither may be named by a database mount
 * ({@code quaestor.db.reserved-datasources}).
 */
public final class AuditPools {

    /** The group-commit writer's connections. */
    public static final String WRITER = "audit-writer";

    /** Search, exports, verify, proofs, the console's audit pages and the daily review's queries. */
    public static final String READ = "audit-read";

    private AuditPools() {
    }
}
