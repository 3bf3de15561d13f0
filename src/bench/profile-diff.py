#!/usr/bin/env python3
"""Where one server's CPU per request goes beside another's: two async-profiler collapsed-stack files of the same
measured loop (src/bench/peer.sh --profile-measured itimer), each with the answers it served, side by side by part of
the request path, in samples per 1,000 answers (at itimer's 10 ms interval, 1 sample per 1,000 answers is 10 us per
answer). Each sample counts once, in the first part (top to bottom of the table) that its stack matches.

Usage: src/bench/profile-diff.py FILE_A ANSWERS_A FILE_B ANSWERS_B"""
import collections
import sys

# (part, test on the frames below the thread's name). Order matters: the first match takes the sample.
PARTS = [
    ("JIT compilers, GC and the VM", lambda t, f: "CompilerThre" in t or "VM Thread" in t or "GC" in t),
    ("audit writer thread", lambda t, f: "quaestor-audit-writer" in t),
    ("Quarkus REST's template path before authentication (a RequestMapper built per request)",
     lambda t, f: any("ObservabilityIntegrationRecorder.setTemplatePath" in x for x in f)),
    ("Quaestor's route filters (origin, throttle, issuer, cookies, challenge, body, admission)",
     lambda t, f: route_handler(f, ("OriginGuard", "UnauthenticatedThrottle", "IssuerConnection", "ConsoleCookies",
                                    "BearerChallenge", "RequestBodyReader", "AdmissionLimit"))),
    ("authentication: Quaestor's token cache and identity", lambda t, f: in_auth(f) == "dev/quaestor"),
    ("authentication: context propagation around its callbacks", lambda t, f: in_auth(f) == "smallrye/context"),
    ("authentication and authorization: the rest of Quarkus's security layer", lambda t, f: in_auth(f) is not None),
    ("authorization: the path permissions checked", lambda t, f: route_handler(f, ("HttpSecurityRecorder$1.handle",))),
    ("HTTP metrics (Micrometer, on any thread)", lambda t, f: any("io/micrometer" in x for x in f)),
    ("worker: the response written (headers, body, file)", lambda t, f: "executor-thread" in t
     and any("ResponseWriterHandler.handle" in x for x in f)),
    ("worker: the resource method", lambda t, f: "executor-thread" in t and any("$quarkusrestinvoker$" in x for x in f)),
    ("worker: request filters and the rest of the handler chain", lambda t, f: "executor-thread" in t
     and any("VertxCoreRecorder$15.runWith" in x for x in f)),
    ("worker: waiting for and handing over work (jboss-threads, park, unpark)", lambda t, f: "executor-thread" in t),
    ("event loop: HTTP parsing, routing and socket I/O", lambda t, f: "vert.x-eventloop" in t),
]


def route_handler(frames, names):
    """The deepest route handler on the stack is one of ours (so the route chain it passes on to is not counted)."""
    handlers = [x for x in frames if x.endswith(".handle") or ".lambda$register$" in x or x.endswith(".filter")]
    return bool(handlers) and any(n in handlers[-1] for n in names)


def in_auth(frames):
    """Inside Quarkus's authentication handler and not in a later route it passes the request on to: which of
    "dev/quaestor" or "smallrye/context" comes first below it, "" if neither; None outside it."""
    at = [i for i, x in enumerate(frames) if "HttpSecurityRecorder$AuthenticationHandler.handle" in x]
    if not at or any("RouteState.handleContext" in x for x in frames[at[-1]:]):
        return None
    for x in frames[at[-1] + 1:]:
        for mark in ("dev/quaestor", "smallrye/context"):
            if mark in x:
                return mark
    return ""


def load(path):
    parts = collections.Counter()
    total = 0
    for line in open(path):
        stack, _, n = line.rstrip("\n").rpartition(" ")
        n = int(n)
        total += n
        frames = stack.split(";")
        thread, below = frames[0], frames[1:]
        for name, test in PARTS:
            if test(thread, below):
                parts[name] += n
                break
        else:
            parts["other"] += n
    return parts, total


def main(a, answers_a, b, answers_b):
    pa, ta = load(a)
    pb, tb = load(b)
    ka, kb = 1000 / answers_a, 1000 / answers_b
    print(f"{'part':<95} {'A':>7} {'B':>7} {'A - B':>7}")
    for name in [p for p, _ in PARTS] + ["other"]:
        print(f"{name:<95} {pa[name] * ka:7.2f} {pb[name] * kb:7.2f} {pa[name] * ka - pb[name] * kb:7.2f}")
    print(f"{'all':<95} {ta * ka:7.2f} {tb * kb:7.2f} {ta * ka - tb * kb:7.2f}")


if __name__ == "__main__":
    if len(sys.argv) != 5:
        sys.exit(__doc__)
    main(sys.argv[1], float(sys.argv[2]), sys.argv[3], float(sys.argv[4]))
