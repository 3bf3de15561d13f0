package dev.quaestor.subscription;

import dev.quaestor.audit.record.Caller;

/**
 * Who holds a notification stream, from the request that opened it: the {@link Subscriber} the policy
 * judges each notification for, the {@link Caller} its audit records name, the id of the opening
 * request (each notification's record carries it, linking the notifications to the stream) and the
 * protocol revision spoken.
 */
public record StreamHolder(Subscriber subscriber, Caller caller, String requestId, String protocol) {
}
