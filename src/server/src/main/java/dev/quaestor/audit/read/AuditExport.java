package dev.quaestor.audit.read;

import dev.quaestor.audit.config.AuditPools;
import dev.quaestor.audit.record.AuditRow;
import dev.quaestor.audit.record.AuditUnavailableException;
import dev.quaestor.audit.record.LiveLog;

import io.agroal.api.AgroalDataSource;
import jakarta.enterprise.context.ApplicationScoped;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.sql.SQLException;
import java.time.Instant;

/**
 * Exports of the whole audit log for auditors, on the audit-read pool ({@link AuditPools#READ}): JSON Lines in the
 * evidence format, or CSV. Each log is exported as it stood when the export started, read a page at a time with no
 * connection held while the page is written out.
 */
@ApplicationScoped
public class AuditExport {

    private final AgroalDataSource ds;
    private final LiveLog log;

    AuditExport(@io.quarkus.agroal.DataSource(AuditPools.READ) AgroalDataSource ds, LiveLog log) {
        this.ds = ds;
        this.log = log;
    }

    /**
     * Writes the export (docs/audit-format.md, section 6) of the records in [from, to), or all: each log's records up
     * to its last one when the export started, and its checkpoints up to its last one then. This replica's writer is
     * first asked to sign its head, so that its log's export ends on a checkpoint (the export's own record included)
     * and verifies without an unsigned tail; other replicas' logs end where their writers last signed.
     */
    public void exportJsonl(Instant from, Instant to, OutputStream out) {
        Writer w = writer(out);
        log.signCheckpointNow(); // if the database cannot take it now, the export ends where the log was last signed
        try {
            StoredLog.replay(ds, StoredLog.bounds(ds), from, to, new ExportLines(w));
            w.flush();
        } catch (SQLException e) {
            throw new AuditUnavailableException(e);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** CSV of the records (header: the record fields and hash), by log and seq, fixed and paged as the export is. */
    public void exportCsv(Instant from, Instant to, OutputStream out) {
        Writer w = writer(out);
        try {
            var csv = new ExportCsv(w, AuditRow.EXPORTED_FIELDS);
            StoredLog.records(ds, StoredLog.bounds(ds), from, to, (record, line) -> {
                try {
                    csv.write(record::field);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
            csv.flush();
            w.flush();
        } catch (SQLException e) {
            throw new AuditUnavailableException(e);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static Writer writer(OutputStream out) {
        return new BufferedWriter(new OutputStreamWriter(out, StandardCharsets.UTF_8), 1 << 16);
    }
}
