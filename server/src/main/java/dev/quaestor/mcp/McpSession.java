package dev.quaestor.mcp;

import io.quarkus.hibernate.orm.panache.PanacheEntityBase;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import java.time.Instant;

/** An MCP session, stored so that any replica can serve it. */
@Entity
@Table(name = "mcp_session")
public class McpSession extends PanacheEntityBase {

    @Id
    public String id;
    @Column(nullable = false)
    public String subject;
    @Column(name = "protocol_version", nullable = false)
    public String protocolVersion;
    @Column(name = "client_name")
    public String clientName;
    @Column(name = "created_at", nullable = false)
    public Instant createdAt;
    @Column(name = "ended_at")
    public Instant endedAt;
    /** The session's current GET stream; a newer stream (on any replica) replaces an older one. */
    @Column(name = "stream_id")
    public String streamId;
}
