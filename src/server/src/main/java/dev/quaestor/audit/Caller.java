package dev.quaestor.audit;

import java.util.List;

/** Who made a request and from where, as recorded in the audit log. Never holds token contents. */
public record Caller(String subject, String client, String tenant, List<String> roles, String sourceIp,
        String userAgent, String sessionId) {

    public Caller {
        roles = roles == null ? List.of() : List.copyOf(roles);
    }
}
