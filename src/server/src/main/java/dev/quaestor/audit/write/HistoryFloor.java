package dev.quaestor.audit.write;

import java.sql.SQLException;
import org.jboss.logging.Logger;

/**
 * How far this writer has itself stored and signed its log. Read again from the database (after any failed batch),
 * the log may be longer, never shorter: a head below what this writer stored, or a last checkpoint below what it
 * signed, means records or checkpoints were removed from the database behind its back (a rollback, a restored backup, a
 * DBA's delete). Writing on would store new records at seqs already signed and sign a second history of the log at
 * sizes it has signed once, with the same key; so the writer refuses every batch from then on, until it is restarted
 * and an administrator has looked (the records refused fail their requests, as when the log cannot commit). Touched only
 * by the writer thread.
 */
final class HistoryFloor {

    private static final Logger LOG = Logger.getLogger(HistoryFloor.class);

    private final String log;
    private long stored;
    private long signed;
    /** Why the log was found cut back, once it was; null before. */
    private String cutBack;

    HistoryFloor(String log) {
        this.log = log;
    }

    /** The log as stored has been read again into {@code head}: it must hold at least what this writer put there. */
    void check(LogHead head) throws CutBack {
        if (cutBack == null && (head.size() < stored || head.signedSize() < signed)) {
            cutBack = "the audit log " + log + " is shorter in the database than this writer left it: " + head.size()
                    + " records (it stored " + stored + "), signed through seq " + head.signedSize() + " (it signed through "
                    + signed + "). Records or checkpoints were removed behind its back (a rollback, a restored backup, a"
                    + " delete with the immutability triggers bypassed); it stores nothing more, so that no second history"
                    + " is signed at sizes signed once. Compare the database with the checkpoints kept outside it"
                    + " (docs/audit.md, the trust model) before restarting";
            LOG.error(cutBack);
        }
        if (cutBack != null) {
            throw new CutBack(cutBack);
        }
    }

    /** A batch was stored: the log now holds at least {@code head}'s records and checkpoints. */
    void reached(LogHead head) {
        stored = Math.max(stored, head.size());
        signed = Math.max(signed, head.signedSize());
    }

    /** Nothing is stored: the log was found shorter than this writer left it. */
    static final class CutBack extends SQLException {
        CutBack(String why) {
            super(why);
        }
    }
}
