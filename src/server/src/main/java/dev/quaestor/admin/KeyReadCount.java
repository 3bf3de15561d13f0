package dev.quaestor.admin;

import dev.quaestor.audit.record.AuditEvent;
import dev.quaestor.audit.record.Caller;
import dev.quaestor.audit.record.RequestIds;
import java.time.Instant;
import java.util.Objects;

/**
 * Reads of the published key past their budget, counted over one merge window into one {@code ADMIN} record: how many,
 * the first and the last, and the address and user agent where every read it counts had the same. Not thread-safe:
 * {@link KeyReads} counts into it under its map's lock.
 */
final class KeyReadCount {

    /** Whether it counts the reads of every address (the total budget was spent), not of one. */
    private final boolean everyAddress;
    private String ip;
    private String userAgent;
    private boolean ipDiffers;
    private boolean userAgentDiffers;
    private long count;
    private Instant first;
    private Instant last;

    KeyReadCount(boolean everyAddress) {
        this.everyAddress = everyAddress;
    }

    void add(String ip, String userAgent, Instant at) {
        if (count == 0) {
            this.ip = ip;
            this.userAgent = userAgent;
        } else {
            ipDiffers |= !Objects.equals(this.ip, ip);
            userAgentDiffers |= !Objects.equals(this.userAgent, userAgent);
        }
        count++;
        first = first == null || at.isBefore(first) ? at : first;
        last = last == null || at.isAfter(last) ? at : last;
    }

    /** This count with {@code other}'s added: a count whose record could not be queued goes on in the next one. */
    KeyReadCount plus(KeyReadCount other) {
        if (count == 0) {
            ip = other.ip;
            userAgent = other.userAgent;
        } else if (other.count > 0) {
            ipDiffers |= !Objects.equals(ip, other.ip);
            userAgentDiffers |= !Objects.equals(userAgent, other.userAgent);
        }
        ipDiffers |= other.ipDiffers;
        userAgentDiffers |= other.userAgentDiffers;
        count += other.count;
        first = first == null || other.first != null && other.first.isBefore(first) ? other.first : first;
        last = last == null || other.last != null && other.last.isAfter(last) ? other.last : last;
        return this;
    }

    long count() {
        return count;
    }

    /** Its record: {@code ADMIN} {@code audit/key}, with the count, the first and the last read. */
    AuditEvent toEvent() {
        String leftOut = ipDiffers && userAgentDiffers ? "ip, ua" : ipDiffers ? "ip" : userAgentDiffers ? "ua" : null;
        return AuditEvent.of(AuditEvent.Kind.ADMIN, RequestIds.next())
                .caller(Caller.anonymous(ipDiffers ? null : ip, userAgentDiffers ? null : userAgent, null))
                .method(KeyReads.METHOD).decision("ALLOW").outcome("ok").summary(count, first, last)
                .detail(count + " read(s) of the published key past the budget of " + (everyAddress ? "every address" : "this address")
                        + ", counted into this record" + (leftOut == null ? "" : "; left out where they differed: " + leftOut))
                .build();
    }
}
