#!/usr/bin/env python3
"""Summarises async-profiler collapsed stacks (bench/load.sh --profile EVENT): the hottest frames by
self samples, and the inclusive share of the request path's parts. Usage: bench/profile-summary.py FILE"""
import collections
import sys

PARTS = [
    ("token check (quarkus-oidc, jose4j, signature)", ("io/quarkus/oidc", "org/jose4j")),
    ("RSA signature verification", ("RSASignature", "sun/security/rsa")),
    ("policy decision", ("dev/quaestor/policy",)),
    ("audit append (request thread waits)", ("dev/quaestor/audit/AuditLog.append",)),
    ("audit writer thread (GroupCommitWriter)", ("dev/quaestor/audit/write/GroupCommitWriter.run",)),
    ("rate limit", ("dev/quaestor/ratelimit",)),
    ("provider read", ("dev/quaestor/pipeline/ProviderCalls",)),
    ("session lookup", ("dev/quaestor/mcp/SessionStore",)),
    ("Jackson (parse + write)", ("com/fasterxml/jackson",)),
    ("Hibernate / Narayana", ("org/hibernate", "com/arjuna", "io/quarkus/narayana")),
    ("JDBC (PostgreSQL driver, Agroal)", ("org/postgresql", "io/agroal")),
    ("logging", ("org/jboss/logmanager", "org/jboss/logging")),
    ("metrics (Micrometer)", ("io/micrometer",)),
    ("MCP endpoint (all of it)", ("dev/quaestor/mcp/McpEndpoint.post",)),
    ("baseline endpoint", ("dev/quaestor/baseline",)),
    ("Vert.x / Netty I/O", ("io/netty", "io/vertx/core/net")),
    ("JIT compiler / GC", ("CompileBroker", "C2Compiler", "G1", "GCTaskThread", "Compile::")),
]


def main(path):
    total = 0
    parts = collections.Counter()
    selfs = collections.Counter()
    for line in open(path):
        stack, _, n = line.rstrip("\n").rpartition(" ")
        n = int(n)
        total += n
        frames = stack.split(";")
        selfs[frames[-1]] += n
        for name, markers in PARTS:
            if any(m in stack for m in markers):
                parts[name] += n
    print(f"{total} samples")
    print("inclusive share of all samples:")
    for name, _ in PARTS:
        print(f"  {100 * parts[name] / total:5.1f}%  {name}")
    print("hottest frames (self):")
    for frame, n in selfs.most_common(25):
        print(f"  {100 * n / total:5.1f}%  {frame[:140]}")


if __name__ == "__main__":
    main(sys.argv[1])
