package dev.quaestor.audit;

import io.quarkus.hibernate.orm.panache.PanacheEntityBase;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import java.time.Instant;

/** The stored form of an {@link AuditEvent}. Rows are only ever inserted. */
@Entity
@Table(name = "audit_entry")
public class AuditEntry extends PanacheEntityBase {

    @Id
    @GeneratedValue(strategy = GenerationType.IDENTITY)
    public Long id;

    @Column(name = "event_time", nullable = false)
    public Instant time;
    @Column(name = "request_id", nullable = false)
    public String requestId;
    @Column(nullable = false)
    public String kind;
    @Column(name = "session_id")
    public String sessionId;
    public String subject;
    @Column(name = "client_id")
    public String client;
    public String tenant;
    public String roles;
    @Column(name = "source_ip")
    public String sourceIp;
    @Column(name = "user_agent")
    public String userAgent;
    public String method;
    public String action;
    public String uri;
    public String decision;
    public String rules;
    @Column(name = "policy_revision")
    public String policyRevision;
    public String outcome;
    @Column(name = "error_code")
    public Integer errorCode;
    public Long bytes;
    @Column(name = "item_count")
    public Integer items;
    @Column(name = "content_sha256")
    public String contentSha256;
    @Column(name = "latency_us")
    public Long latencyMicros;
    public String detail;
    public String format;
    @Column(name = "chain_id")
    public String chainId;
    public Long seq;
    @Column(name = "prev_hash")
    public String prevHash;
    @Column(name = "entry_hash")
    public String entryHash;
}
