/**
 * The read side, on the audit-read pool: searches and their filters and pages (AuditQuery, AuditSearch,
 * SearchPaging), streamed reads of a search (AuditStream), counts (AuditTally), the distinct facts of recorded
 * decisions (DecisionFacts), the tables read in the export's order (StoredLog) into the evidence and CSV exports
 * (AuditExport, ExportLines, ExportCsv), proofs (AuditProofs, ProofsAt), the online check (OnlineVerifier), a read past
 * the query timeout (AuditQueryTimeout), what was archived and where (ArchivedMonths) and the places for long reads,
 * shared fairly (LongReads, LongReadConfig).
 */
package dev.quaestor.audit.read;
