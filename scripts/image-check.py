#!/usr/bin/env python3
"""Checks an image tarball (`docker save` format) without a container runtime (scripts/imageroot.py: unpacked,
chroot, as the image's user, in its working directory, with its environment). Needs root and PostgreSQL on
127.0.0.1.

1. It runs as a non-root user and contains no shell.
2. Its entrypoint, in the migrate-and-exit mode (QUARKUS_INIT_AND_EXIT) of the migration Job, migrates a fresh
   database and exits 0.
3. Start-up as a pod starts (migrations off; the pod's files and environment; a stand-in OIDC issuer; the JVM told
   the Deployment's 1 GiB memory limit): if the entrypoint maps a start-up archive (scripts/image-archive.py), one
   start with the archive required (-XX:AOTMode=on / -Xshare:on: the JVM refuses to start rather than run without
   it), then STARTS timed starts to /q/health/ready as the image is, and as many with the archive option removed;
   medians printed (docs/performance.md has the figures against the targets); then, for each, the server's CPU per
   audited read in the first 10 s of reads after ready and 30 s later.
4. The image as it is: its idle RSS 5 s after ready, then a read it serves: a token signed by the stand-in issuer
   (a principal investigator) reads a trial summary over MCP and is refused raw data with -32003; the database then
   holds the read's DECISION and its OUTCOME with the SHA-256 of the bytes served.

    scripts/image-check.py IMAGE.tar [STARTS]      (STARTS: 3)
"""
import hashlib
import os
import statistics
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import imageroot  # noqa: E402

SHELLS = ["bin/sh", "bin/bash", "bin/ash", "bin/dash", "usr/bin/sh", "usr/bin/bash", "bin/busybox"]
DB = os.environ.get("QUAESTOR_TEST_DB", "quaestor_test") + "_image"
ARCHIVE_OPTIONS = {"-XX:AOTCache=": "-XX:AOTMode=on", "-XX:SharedArchiveFile=": "-Xshare:on"}


def cpu_seconds(pid):
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def rss_mib(pid):
    """VmRSS and its file-backed part (RssFile) of a process, in MiB."""
    fields = {}
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            key, _, value = line.partition(":")
            if key in ("VmRSS", "RssFile"):
                fields[key] = int(value.split()[0]) // 1024
    return fields["VmRSS"], fields["RssFile"]


def timed_start(img, argv, env, port, log):
    proc = img.start(argv, env, log)
    try:
        seconds = imageroot.await_ready(proc, port, 120)
        cpu = cpu_seconds(proc.pid)
    finally:
        imageroot.stop(proc)
    return seconds, cpu


def startup(img, starts):
    img.provision_pod_files()
    issuer = imageroot.StandInIssuer()
    log = "/tmp/quaestor-image-start.log"
    try:
        entry = img.entrypoint
        archive = [o for o in entry if any(o.startswith(k) for k in ARCHIVE_OPTIONS)]
        variants = [("as the image is", entry)]
        if archive:
            required = next(v for k, v in ARCHIVE_OPTIONS.items() if archive[0].startswith(k))
            port = imageroot.free_port()
            seconds, _ = timed_start(img, imageroot.with_jvm_options(entry, imageroot.POD_JVM + [required]),
                                     img.pod_env(issuer.issuer, DB, port), port, log)
            print(f"start-up archive {archive[0]} used: a start with {required} got ready in {seconds:.2f} s")
            variants.append(("without the archive", [o for o in entry if o not in archive]))
        else:
            print("the entrypoint maps no start-up archive (scripts/image-archive.py adds one)")
        for label, argv in variants:
            times, cpus = [], []
            for _ in range(starts):
                port = imageroot.free_port()
                seconds, cpu = timed_start(img, imageroot.with_jvm_options(argv, imageroot.POD_JVM),
                                           img.pod_env(issuer.issuer, DB, port), port, log)
                times.append(seconds)
                cpus.append(cpu)
            print(f"start to ready, {label}: " + ", ".join(f"{t:.2f}" for t in times)
                  + f" s; median {statistics.median(times):.2f} s, CPU {statistics.median(cpus):.2f} core-s")
        for label, argv in variants:
            warm_up(img, issuer, imageroot.with_jvm_options(argv, imageroot.POD_JVM), label, log)
        audited_read(img, issuer, log)
    finally:
        issuer.close()


def warm_up(img, issuer, argv, label, log):
    """Server CPU per audited read in the first 10 s of reads after ready, then after 20 s more, over 10 s: how
    soon a new pod serves at its warm cost. Each phase has subjects of its own, sixteen reading at once, each on its
    own session, so that no subject reaches the sample policies' per-user limit (600 reads a minute) and the reads
    measured are served reads, not refusals."""
    port = imageroot.free_port()
    proc = img.start(argv, img.pod_env(issuer.issuer, DB, port), log)
    try:
        imageroot.await_ready(proc, port, 120)
        phases = []
        for phase, (seconds, measured) in enumerate([(10, True), (20, False), (10, True)]):
            tokens = [issuer.token(f"image-warm-{phase}-{i}", ["principal-investigator"]) for i in range(16)]
            cpu = cpu_seconds(proc.pid)
            served, refused = imageroot.reads(port, tokens, seconds, "image-check")
            if measured:
                phases.append((served, refused, cpu_seconds(proc.pid) - cpu))
    finally:
        imageroot.stop(proc)
    (first, first_refused, first_cpu), (warm, warm_refused, warm_cpu) = phases
    assert first > 0 and warm > 0, f"reads served: {phases}"
    print(f"CPU per audited read, {label}: first 10 s after ready {first_cpu / first * 1000:.2f} ms "
          f"({first / 10:.0f} reads/s, {first_refused} refused), 30-40 s after ready {warm_cpu / warm * 1000:.2f} ms "
          f"({warm / 10:.0f} reads/s, {warm_refused} refused)")


def audited_read(img, issuer, log):
    """The image as it is serves a read to a signed token and records it: DECISION and OUTCOME with the bytes' hash."""
    port = imageroot.free_port()
    proc = img.start(imageroot.with_jvm_options(img.entrypoint, imageroot.POD_JVM), img.pod_env(issuer.issuer, DB, port),
                     log)
    try:
        imageroot.await_ready(proc, port, 120)
        time.sleep(5)
        idle_rss, idle_rss_file = rss_mib(proc.pid)
        token = issuer.token("image-check-pi", ["principal-investigator"])
        session = imageroot.initialize(port, token, "image-check")
        uri = imageroot.READ_URI
        _, read = imageroot.mcp(port, token, {"jsonrpc": "2.0", "id": 2, "method": "resources/read", "params": {"uri": uri}},
                      session)
        text = read["result"]["contents"][0]["text"]
        _, denied = imageroot.mcp(port, token, {"jsonrpc": "2.0", "id": 3, "method": "resources/read",
                                      "params": {"uri": "file:///docs/trials/onco-734/raw/sample-001.bin"}}, session)
        assert denied["error"]["code"] == -32003, f"raw genomics are denied: {denied}"
    finally:
        imageroot.stop(proc)
    digest = hashlib.sha256(text.encode()).hexdigest()
    rows = imageroot.psql("SELECT kind || ' ' || coalesce(content_sha256, '-') FROM audit_entry "
                          f"WHERE subject = 'image-check-pi' AND uri = '{uri}' ORDER BY seq", DB).split("\n")
    assert rows == ["DECISION -", f"OUTCOME {digest}"], f"the read's audit records: {rows}"
    print(f"idle RSS of the image as it is, 5 s after ready: {idle_rss} MiB ({idle_rss_file} MiB of it file pages, "
          "such as the cache's, which the kernel can drop and share)")
    print(f"audited read in the image: {len(text)} characters of {uri} for a signed token, DECISION and OUTCOME "
          f"recorded with SHA-256 {digest[:16]}…; the raw data denied with -32003")


def main(image, starts):
    img = imageroot.ImageRoot(image)
    try:
        print(f"image config: User={img.user!r} WorkingDir={img.workdir!r} Entrypoint={img.entrypoint}")
        assert img.uid != 0, "the image runs as a non-root user"
        present = [s for s in SHELLS if os.path.lexists(img.path(s))]
        assert not present, f"no shell in the image: {present}"
        print("no shell in the image:", ", ".join("/" + s for s in SHELLS), "absent")

        run = img.migrate(DB, timeout=180)
        print(f"entrypoint (migrate and exit) exited {run.returncode}")
        if run.returncode != 0:
            print(run.stdout[-4000:], run.stderr[-4000:])
            sys.exit(1)
        out = imageroot.psql("SELECT count(*) FROM flyway_schema_history WHERE success", DB)
        assert int(out) >= 3, f"migrations applied by the image: {out}"
        print(f"IMAGE OK: non-root ({img.uid}), no shell, the server in the image migrated {DB} ({out} migrations) "
              "and exited")
        if starts > 0:
            startup(img, starts)
        imageroot.psql(f"DROP DATABASE IF EXISTS {DB} WITH (FORCE)")
    finally:
        img.close()


if __name__ == "__main__":
    if len(sys.argv) not in (2, 3):
        sys.exit(__doc__)
    main(sys.argv[1], int(sys.argv[2]) if len(sys.argv) == 3 else 3)
