package dev.quaestor.subscription;

import io.quarkus.hibernate.orm.panache.PanacheEntityBase;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import java.time.Instant;

/** One session's subscription to one canonical URI, stored so that every replica can see it. */
@Entity
@Table(name = "mcp_subscription")
public class McpSubscription extends PanacheEntityBase {

    /** SHA-256 of session id and URI: subscribing twice finds the same row. */
    @Id
    public String id;
    @Column(name = "session_id", nullable = false)
    public String sessionId;
    @Column(nullable = false)
    public String uri;
    @Column(nullable = false)
    public String subject;
    /** The subscriber's identity as JSON, to re-judge each notification under the current policy. */
    @Column(nullable = false)
    public String identity;
    @Column(name = "source_ip")
    public String sourceIp;
    @Column(name = "created_at", nullable = false)
    public Instant createdAt;
}
