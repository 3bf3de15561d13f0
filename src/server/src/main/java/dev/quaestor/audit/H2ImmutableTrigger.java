package dev.quaestor.audit;

import java.sql.Connection;
import java.sql.SQLException;
import org.h2.api.Trigger;

/** Rejects UPDATE and DELETE on audit tables in H2 (see V3__audit_immutability.sql for H2). */
public class H2ImmutableTrigger implements Trigger {

    private String table;

    @Override
    public void init(Connection conn, String schemaName, String triggerName, String tableName, boolean before, int type) {
        this.table = tableName;
    }

    @Override
    public void fire(Connection conn, Object[] oldRow, Object[] newRow) throws SQLException {
        throw new SQLException("audit records are immutable: " + (newRow == null ? "DELETE" : "UPDATE") + " on " + table
                + " is not allowed", "42501");
    }
}
