#!/usr/bin/env python3
"""Start-up CPU by phase from async-profiler collapsed stacks with thread names (src/bench/peer.sh --profile-start
EVENT). Each sample goes to one phase: the shutdown if the stop is on its stack; else the outermost Quaestor package
on its stack (dev/quaestor/<package>); else the first library below that is; else the JIT compilers, the collector,
or the rest. Class loading and bytecode verification are also shown across phases. Usage: startup-phases.py FILE"""
import collections
import re
import sys

LIBRARIES = [
    ("Hibernate ORM", ("org/hibernate", "HibernateOrmRecorder")),
    ("Flyway", ("org/flywaydb", "FlywayRecorder")),
    ("OIDC (discovery, JWKS, jose4j)", ("io/quarkus/oidc", "org/jose4j")),
    ("Agroal / PostgreSQL driver", ("io/agroal", "org/postgresql")),
    ("OpenTelemetry", ("io/opentelemetry",)),
    ("Micrometer", ("io/micrometer",)),
    ("logging (JSON formatter, log manager)", ("org/jboss/logmanager", "io/quarkus/logging")),
    ("Jackson", ("com/fasterxml/jackson",)),
    ("scheduler", ("io/quarkus/scheduler", "com/cronutils")),
    ("Redis client", ("io/quarkus/redis", "io/vertx/redis", "io/lettuce")),
    ("REST (RESTEasy Reactive)", ("org/jboss/resteasy", "io/quarkus/resteasy")),
    ("SmallRye (config, fault tolerance, health)", ("io/smallrye",)),
    ("ArC (CDI container)", ("io/quarkus/arc",)),
    ("Vert.x / Netty", ("io/vertx", "io/netty")),
    ("Quarkus boot, other", ("io/quarkus",)),
]
CLASS_LOADING = ("ClassLoader.loadClass", "ClassLoader.defineClass", "SystemDictionary", "ClassFileParser",
                 "Verifier::", "ClassVerifier", "Rewriter::", "LinkResolver", "RunnerClassLoader")


def phase(frames):
    thread = frames[0]
    if any("Application.stop" in f or "ShutdownHookThread" in f for f in frames):
        return "the stop (after ready)"
    for f in frames[1:]:
        if f.startswith("dev/quaestor/"):
            return "Quaestor: " + "/".join(f.split("/")[2:-1] or ["(top)"])
    for name, patterns in LIBRARIES:
        if any(p in f for f in frames for p in patterns):
            return name
    if "Compiler" in thread:
        return "JIT compilers"
    if "GC" in thread or "VM Thread" in thread:
        return "garbage collector, VM thread"
    return "other: " + re.sub(r"( tid=\d+)?\]$", "", thread.lstrip("[")).rstrip("0123456789-# ")


def main(path, interval_ms=10.0):
    phases = collections.Counter()
    loading = 0
    total = 0
    for line in open(path):
        stack, _, count = line.rstrip("\n").rpartition(" ")
        n = int(count)
        frames = stack.split(";")
        total += n
        phases[phase(frames)] += n
        if any(p in f for f in frames for p in CLASS_LOADING):
            loading += n
    print(f"{total} samples of {interval_ms:g} ms = {total * interval_ms / 1000:.2f} core-s\n")
    print("| phase | core-s | share |")
    print("|---|---|---|")
    for name, n in phases.most_common():
        if n * 100 / total >= 0.5:
            print(f"| {name} | {n * interval_ms / 1000:.2f} | {n * 100 / total:.1f}% |")
    rest = sum(n for n in phases.values() if n * 100 / total < 0.5)
    print(f"| (phases under 0.5% each) | {rest * interval_ms / 1000:.2f} | {rest * 100 / total:.1f}% |")
    print(f"\nof all the above, class loading, linking and verification: {loading * interval_ms / 1000:.2f} core-s "
          f"({loading * 100 / total:.1f}%)")


if __name__ == "__main__":
    main(sys.argv[1])
