#!/usr/bin/env python3
"""Builds a minimal JVM base image as a `docker save` tarball, with no container tooling and no registry.

The image holds only a jlink'd Java runtime (/opt/java), the shared libraries it links against (copied from this
machine), /etc/passwd and /etc/group with the non-root user 65532, and an empty /tmp: no shell, no package manager,
no coreutils (the same idea as distroless). scripts/image.sh hands it to Jib as `tar://` when no registry is
reachable; with a registry, use a maintained base instead (README "Container image").

    scripts/image-base.py JAVA_HOME OUT.tar
"""
import hashlib
import io
import json
import os
import shutil
import subprocess
import sys
import tarfile
import tempfile

MODULES = ",".join([
    "java.se", "jdk.unsupported", "jdk.crypto.ec", "jdk.crypto.cryptoki", "jdk.naming.dns", "jdk.zipfs",
    "jdk.management", "jdk.localedata", "jdk.charsets", "jdk.net",
])
UID = 65532


def jlink(java_home, out):
    subprocess.run([os.path.join(java_home, "bin", "jlink"), "--add-modules", MODULES, "--strip-debug",
                    "--no-header-files", "--no-man-pages", "--output", out], check=True)


# Desktop and sound libraries are never loaded by a headless server; their X11/ALSA dependencies stay out.
HEADLESS_SKIP = {"libawt_xawt.so", "libjsound.so", "libsplashscreen.so"}


def shared_libraries(root):
    """Every system library the runtime's binaries and libraries link against, as ldd resolves them here."""
    root = os.path.realpath(root)
    libs = set()
    for d, _, files in os.walk(root):
        for f in files:
            p = os.path.join(d, f)
            if (f.endswith(".so") and f not in HEADLESS_SKIP) or d.endswith("/bin"):
                out = subprocess.run(["ldd", p], capture_output=True, text=True).stdout
                for line in out.splitlines():
                    parts = line.split()
                    for token in parts:
                        if token.startswith("/") and os.path.exists(token):
                            real = os.path.normpath(token)
                            if not os.path.realpath(real).startswith(root + "/"):
                                libs.add(real)
    return sorted(libs)


def add_file(tar, name, data, mode=0o644):
    info = tarfile.TarInfo(name)
    info.size = len(data)
    info.mode = mode
    info.mtime = 0
    tar.addfile(info, io.BytesIO(data))


def add_dir(tar, name, mode=0o755):
    info = tarfile.TarInfo(name)
    info.type = tarfile.DIRTYPE
    info.mode = mode
    info.mtime = 0
    tar.addfile(info)


def main(java_home, out_tar):
    work = tempfile.mkdtemp(prefix="quaestor-base-")
    try:
        runtime = os.path.join(work, "java")
        jlink(java_home, runtime)
        layer_path = os.path.join(work, "layer.tar")
        with tarfile.open(layer_path, "w", dereference=True) as layer:
            for d in ["etc", "lib", "lib64", "opt", "usr", "usr/lib", "home", "home/nonroot"]:
                add_dir(layer, d)
            add_dir(layer, "tmp", 0o1777)
            add_file(layer, "etc/passwd", f"root:x:0:0:root:/root:/sbin/nologin\nnonroot:x:{UID}:{UID}:nonroot:/home/nonroot:/sbin/nologin\n".encode())
            add_file(layer, "etc/group", f"root:x:0:\nnonroot:x:{UID}:\n".encode())
            layer.add(runtime, arcname="opt/java", filter=lambda i: _zero_mtime(i))
            seen = {"etc", "lib", "lib64", "opt", "usr", "usr/lib", "home", "home/nonroot", "tmp"}
            for lib in shared_libraries(runtime):
                arc = lib.lstrip("/")
                for parent in _parents(arc):
                    if parent not in seen:
                        seen.add(parent)
                        add_dir(layer, parent)
                layer.add(lib, arcname=arc, filter=lambda i: _zero_mtime(i))
        digest = _sha256(layer_path)
        config = {
            "architecture": "amd64", "os": "linux",
            "config": {"User": f"{UID}:{UID}", "WorkingDir": "/home/nonroot",
                       "Env": ["PATH=/opt/java/bin", "JAVA_HOME=/opt/java", "LANG=C.UTF-8"]},
            "rootfs": {"type": "layers", "diff_ids": ["sha256:" + digest]},
            "history": [{"created_by": "scripts/image-base.py (jlink runtime + its shared libraries)"}],
        }
        config_bytes = json.dumps(config).encode()
        config_name = hashlib.sha256(config_bytes).hexdigest() + ".json"
        manifest = [{"Config": config_name, "RepoTags": ["quaestor-base:local"], "Layers": [digest + "/layer.tar"]}]
        with tarfile.open(out_tar, "w") as image:
            add_file(image, config_name, config_bytes)
            add_file(image, "manifest.json", json.dumps(manifest).encode())
            add_dir(image, digest)
            image.add(layer_path, arcname=digest + "/layer.tar")
        print(f"base image {out_tar}: layer sha256:{digest}, {os.path.getsize(out_tar) // (1024 * 1024)} MiB")
    finally:
        shutil.rmtree(work, ignore_errors=True)


def _parents(path):
    parts = path.split("/")[:-1]
    return ["/".join(parts[:i + 1]) for i in range(len(parts))]


def _zero_mtime(info):
    info.mtime = 0
    info.uid = info.gid = 0
    info.uname = info.gname = ""
    return info


def _sha256(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    main(sys.argv[1], sys.argv[2])
