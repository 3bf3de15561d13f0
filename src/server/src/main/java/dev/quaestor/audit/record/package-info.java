/**
 * The audit record, what every other room of the log shares: the event a caller hands in (AuditEvent, its Caller),
 * the stored record as its text (RecordText: what is hashed, stored and exported as evidence) and as one typed row
 * (AuditRow), its database form (AuditRecords: the columns, in the order of the format's field list), chosen
 * fields stored hashed (FieldHasher), text a record holds only sealed under a key (SealKey), the URIs a summary
 * stands for (UriTally), request ids (RequestIds), the stored nodes of the Merkle tree (TreeNodes), this replica's log as the rooms see it (LiveLog), and the one failure a
 * caller fails closed on (AuditUnavailableException).
 */
package dev.quaestor.audit.record;
