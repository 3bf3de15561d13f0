#!/usr/bin/env python3
"""Adds a start-up archive to an image tarball (`docker save` format), written by the image's own JVM.

A JVM maps an archive of already parsed, verified and linked classes only if the exact same JVM build wrote it with
the same class path, so the archive cannot come from the build machine's JDK: this script unpacks the image, runs
its entrypoint there (scripts/imageroot.py: chroot, as the image's user, with a pod's files and environment against
local PostgreSQL and a stand-in OIDC issuer) as a training start with the archive option, lets it get ready and serve
audited reads for a while, stops it with SIGTERM as Kubernetes would (the JVM writes the archive as it exits), and rewrites the tarball with one more
layer holding the archive and the entrypoint's JVM option that maps it:

  - Java 25 and later: an AOT cache (JEP 483/514: -XX:AOTCacheOutput, then -XX:AOTCache);
  - Java 19 to 24: a dynamic AppCDS archive (-XX:ArchiveClassesAtExit, then -XX:SharedArchiveFile).

A JVM that cannot use the archive (another JVM build, a changed class path) starts without it, only slower;
scripts/image-check.py starts the image with the archive required (-XX:AOTMode=on / -Xshare:on) to prove it is used.
Needs root (chroot) and PostgreSQL on 127.0.0.1.

    scripts/image-archive.py IMAGE.tar
"""
import gzip
import hashlib
import io
import json
import os
import shutil
import sys
import tarfile
import tempfile
import time
import urllib.error
import urllib.request

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import imageroot  # noqa: E402

DB = os.environ.get("QUAESTOR_TEST_DB", "quaestor_test") + "_image_train"
# Where the archive lives in the image: the image user's working directory (deploy/base mounts nothing there).
ARCHIVE_DIR = "/home/nonroot"
# How long the training start serves audited reads before it is stopped. Java 25's AOT cache keeps the method
# profiles of the training run (JEP 515), so the JIT of a new pod compiles the read path sooner.
TRAINING_SECONDS = 30


def archive_kind(java):
    if java >= 25:
        return "quaestor.aot", "-XX:AOTCacheOutput=", "-XX:AOTCache="
    if java >= 19:
        return "quaestor.jsa", "-XX:ArchiveClassesAtExit=", "-XX:SharedArchiveFile="
    sys.exit(f"image-archive: the image's Java ({java or 'unknown'}) is older than 19; no archive written")


def exercise(port, issuer):
    """What a pod does early, so that the cache holds the classes (and, from Java 25, the method profiles) of serving:
    probes, an MCP request without a token (401), then TRAINING_SECONDS of audited reads from four signed subjects."""
    for path in ["/q/health/started", "/q/health/live", "/q/health/ready"]:
        urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", timeout=5).read()
    req = urllib.request.Request(f"http://127.0.0.1:{port}/mcp", method="POST",
                                 data=b'{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}',
                                 headers={"Content-Type": "application/json",
                                          "Accept": "application/json, text/event-stream"})
    try:
        urllib.request.urlopen(req, timeout=5)
    except urllib.error.HTTPError as e:
        assert e.code == 401, f"an MCP request without a token answered {e.code}"
    tokens = [issuer.token(f"image-training-{i}", ["principal-investigator"]) for i in range(4)]
    served, refused = imageroot.reads(port, tokens, TRAINING_SECONDS, "image-training")
    assert served > 0, "the training start served no audited read"
    return served, refused


def train(image):
    img = imageroot.ImageRoot(image)
    issuer = None
    try:
        java = img.java_feature_version()
        name, write_opt, use_opt = archive_kind(java)
        print(f"image-archive: Java {java} in the image: {'AOT cache' if java >= 25 else 'dynamic AppCDS archive'}")
        # As the migration Job does, then as a pod starts: migrations off, app credentials.
        run = img.migrate(DB)
        if run.returncode != 0:
            sys.exit(f"image-archive: migrating the training database failed:\n{run.stdout[-3000:]}{run.stderr[-3000:]}")

        img.provision_pod_files()
        issuer = imageroot.StandInIssuer()
        port = imageroot.free_port()
        inside = f"/tmp/{name}"
        log = os.path.join(tempfile.gettempdir(), "quaestor-image-training.log")
        proc = img.start(imageroot.with_jvm_options(img.entrypoint, imageroot.POD_JVM + [write_opt + inside]),
                         img.pod_env(issuer.issuer, DB, port), log)
        ready = imageroot.await_ready(proc, port, 300)
        served, refused = exercise(port, issuer)
        print(f"image-archive: training start served {served} audited reads ({refused} refused) in "
              f"{TRAINING_SECONDS} s")
        stopped = imageroot.stop(proc, within=300)
        out = img.path(inside)
        if not os.path.exists(out):
            sys.exit(f"image-archive: the training start wrote no archive (its output: {log})")
        print(f"image-archive: training start ready in {ready:.2f} s, stopped and wrote {name} "
              f"({os.path.getsize(out) // (1024 * 1024)} MiB) in {stopped:.2f} s")
        add_layer(image, out, f"{ARCHIVE_DIR}/{name}", use_opt + f"{ARCHIVE_DIR}/{name}")
        imageroot.psql(f"DROP DATABASE IF EXISTS {DB} WITH (FORCE)")
    finally:
        if issuer:
            issuer.close()
        img.close()


def add_layer(image, archive, inside, option):
    """Rewrites the tarball: one more layer with the archive at `inside`, and `option` in the entrypoint."""
    work = tempfile.mkdtemp(prefix="quaestor-image-archive-")
    try:
        layer = io.BytesIO()
        with tarfile.open(fileobj=layer, mode="w") as t:
            info = t.gettarinfo(archive, arcname=inside.lstrip("/"))
            info.mode, info.mtime, info.uid, info.gid, info.uname, info.gname = 0o444, 0, 0, 0, "", ""
            with open(archive, "rb") as f:
                t.addfile(info, f)
        raw = layer.getvalue()
        diff_id = "sha256:" + hashlib.sha256(raw).hexdigest()
        gz = io.BytesIO()
        with gzip.GzipFile(fileobj=gz, mode="wb", mtime=0) as g:
            g.write(raw)
        blob = gz.getvalue()
        blob_name = hashlib.sha256(blob).hexdigest() + ".tar.gz"

        with tarfile.open(image) as t:
            manifest = json.load(t.extractfile("manifest.json"))
            config_name = manifest[0]["Config"]
            config = json.load(t.extractfile(config_name))
            entry = config["config"]["Entrypoint"]
            if any(o.startswith(option.split("=", 1)[0] + "=") for o in entry):
                sys.exit(f"image-archive: the entrypoint already maps an archive: {entry}")
            config["config"]["Entrypoint"] = imageroot.with_jvm_options(entry, [option])
            config["rootfs"]["diff_ids"].append(diff_id)
            config.setdefault("history", []).append({
                "created_by": f"scripts/image-archive.py: {os.path.basename(inside)}, written by the image's JVM "
                              "in a training start"})
            manifest[0]["Layers"].append(blob_name)
            rewritten = os.path.join(work, "image.tar")
            with tarfile.open(rewritten, "w") as out:
                for member in t.getmembers():
                    if member.name in (config_name, "manifest.json"):
                        continue
                    out.addfile(member, t.extractfile(member) if member.isfile() else None)
                for name, data in [(blob_name, blob), (config_name, json.dumps(config).encode()),
                                   ("manifest.json", json.dumps(manifest).encode())]:
                    info = tarfile.TarInfo(name)
                    info.size, info.mtime = len(data), 0
                    out.addfile(info, io.BytesIO(data))
        shutil.move(rewritten, image)
        print(f"image-archive: {image}: layer {diff_id[:19]}… ({len(blob) // (1024 * 1024)} MiB compressed) "
              f"and entrypoint {config['config']['Entrypoint']}")
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    started = time.monotonic()
    train(sys.argv[1])
    print(f"image-archive: done in {time.monotonic() - started:.0f} s")
