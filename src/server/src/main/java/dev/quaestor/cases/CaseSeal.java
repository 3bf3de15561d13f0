package dev.quaestor.cases;

import dev.quaestor.audit.record.SealKey;

/**
 * A case's seal key: what its records seal the text staff typed into it under ({@link SealKey}), so that every auditor
 * may read the trail and only the case's members, who are given the key, can check a record against the text. A case
 * opened before there were keys has none until a change needs one: the change sets it, in its own transaction, and
 * only where the row still has none, so two changes at once seal under the one key stored.
 */
final class CaseSeal {

    private CaseSeal() {
    }

    /** The case's key, set now (in the caller's transaction) if it has none. */
    static SealKey of(AuditCase c) {
        if (c.sealKey != null) {
            return SealKey.of(c.sealKey);
        }
        AuditCase.getEntityManager().createNativeQuery("UPDATE audit_case SET seal_key = ?1 WHERE id = ?2 AND seal_key IS NULL")
                .setParameter(1, SealKey.fresh().bytes()).setParameter(2, c.id).executeUpdate();
        return known(c);
    }

    /** The case's key as stored (in the caller's transaction, so one {@link #of} just set), or null if it has none. */
    static SealKey known(AuditCase c) {
        if (c.sealKey != null) {
            return SealKey.of(c.sealKey);
        }
        Object stored = AuditCase.getEntityManager().createNativeQuery("SELECT seal_key FROM audit_case WHERE id = ?1")
                .setParameter(1, c.id).getSingleResult();
        return stored == null ? null : SealKey.of((byte[]) stored);
    }
}
