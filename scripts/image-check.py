#!/usr/bin/env python3
"""Checks an image tarball (`docker save` format) without a container runtime: unpacks its layers into a root file
system, checks that it runs as a non-root user and contains no shell, then runs its entrypoint there (chroot, as the
image's user, in its working directory, with its environment) in the migrate-and-exit mode (QUARKUS_INIT_AND_EXIT)
against PostgreSQL on 127.0.0.1, and expects exit 0 with the schema in place. Needs root (chroot, mounting /proc).

    scripts/image-check.py IMAGE.tar
"""
import json
import os
import shutil
import subprocess
import sys
import tarfile
import tempfile
import time

SHELLS = ["bin/sh", "bin/bash", "bin/ash", "bin/dash", "usr/bin/sh", "usr/bin/bash", "bin/busybox"]
DB = os.environ.get("QUAESTOR_TEST_DB", "quaestor_test") + "_image"


def unpack(image, root):
    with tarfile.open(image) as t:
        manifest = json.load(t.extractfile("manifest.json"))[0]
        config = json.load(t.extractfile(manifest["Config"]))
        for layer in manifest["Layers"]:
            with tarfile.open(fileobj=t.extractfile(layer)) as lt:
                # fully_trusted keeps modes as the image has them (/tmp 1777); the tarball is the one just built
                lt.extractall(root, filter="fully_trusted") if hasattr(tarfile, "fully_trusted_filter") else lt.extractall(root)
    return config["config"]


def psql(sql):
    subprocess.run(["psql", "-h", "127.0.0.1", "-U", "postgres", "-v", "ON_ERROR_STOP=1", "-qAt", "-c", sql],
                   check=True, capture_output=True, text=True)


def main(image):
    root = tempfile.mkdtemp(prefix="quaestor-image-")
    mounted = []
    os.chmod(root, 0o755)  # the image's / as any image has it: traversable by its non-root user
    try:
        cfg = unpack(image, root)
        user = cfg.get("User", "")
        print(f"image config: User={user!r} WorkingDir={cfg.get('WorkingDir')!r} Entrypoint={cfg.get('Entrypoint')}")
        uid = int(user.split(":")[0]) if user else 0
        assert uid != 0, "the image runs as a non-root user"
        present = [s for s in SHELLS if os.path.lexists(os.path.join(root, s))]
        assert not present, f"no shell in the image: {present}"
        print("no shell in the image:", ", ".join("/" + s for s in SHELLS), "absent")

        psql(f"DROP DATABASE IF EXISTS {DB} WITH (FORCE)")
        psql(f"CREATE DATABASE {DB}")
        env = dict(e.split("=", 1) for e in cfg.get("Env", []))
        env.update({
            "QUARKUS_INIT_AND_EXIT": "true",
            "QUAESTOR_OIDC_ISSUER": "http://127.0.0.1:9/realms/unused",
            "QUAESTOR_OIDC_AUDIENCE": "quaestor",
            "QUAESTOR_DB_URL": f"jdbc:postgresql://127.0.0.1:5432/{DB}",
            "QUAESTOR_DB_USER": "postgres",
            "QUAESTOR_DB_PASSWORD": "trust",
        })
        workdir = cfg.get("WorkingDir") or "/"
        # A container runtime always gives the process /proc (the dynamic loader resolves $ORIGIN through it).
        os.makedirs(os.path.join(root, "proc"), exist_ok=True)
        subprocess.run(["mount", "-t", "proc", "proc", os.path.join(root, "proc")], check=True)
        mounted.append(os.path.join(root, "proc"))

        def enter():
            os.chroot(root)
            os.chdir(workdir)
            os.setgroups([])
            os.setgid(uid)
            os.setuid(uid)

        argv = (cfg.get("Entrypoint") or []) + (cfg.get("Cmd") or [])
        start = time.time()
        run = subprocess.run(argv, env=env, preexec_fn=enter, capture_output=True, text=True, timeout=180)
        print(f"entrypoint exited {run.returncode} after {time.time() - start:.1f} s")
        if run.returncode != 0:
            print(run.stdout[-4000:], run.stderr[-4000:])
            sys.exit(1)
        out = subprocess.run(["psql", "-h", "127.0.0.1", "-U", "postgres", "-d", DB, "-qAt", "-c",
                              "SELECT count(*) FROM flyway_schema_history WHERE success"],
                             check=True, capture_output=True, text=True).stdout.strip()
        assert int(out) >= 3, f"migrations applied by the image: {out}"
        print(f"IMAGE OK: non-root ({uid}), no shell, the server in the image migrated {DB} ({out} migrations) and exited")
        psql(f"DROP DATABASE IF EXISTS {DB} WITH (FORCE)")
    finally:
        for m in mounted:
            subprocess.run(["umount", m], check=False)
        shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    main(sys.argv[1])
