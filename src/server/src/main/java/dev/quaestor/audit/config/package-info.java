/**
 * The audit log's settings ({@code quaestor.audit.*}: AuditConfig) and the names of its own connection pools
 * (AuditPools).
 */
package dev.quaestor.audit.config;
