"""An image tarball (`docker save` format) unpacked into a directory and run there without a container runtime:
chroot, as the image's user, in its working directory, with its environment and a /proc. Used by image-check.py
(does the image run, how fast does it start) and image-archive.py (a training start that writes a start-up
archive with the image's own JVM). Needs root (chroot, mount).

A pod of deploy/base is imitated as far as start-up needs: the policy files and content are copied to where the
Deployment mounts them, an audit signing key is generated, and a stand-in OIDC issuer on 127.0.0.1 serves a
discovery document and a JWKS and signs the tokens of the audited reads that `reads` sends.
"""
import base64
import http.server
import json
import os
import shutil
import socket
import subprocess
import tarfile
import tempfile
import threading
import time
import urllib.error
import urllib.request

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# What the JVM of a pod of deploy/base sees: its 1 GiB memory limit (so ergonomics pick the Serial collector and a
# 768 MiB heap from -XX:MaxRAMPercentage=75), imitated here on a host with more memory.
POD_JVM = ["-XX:MaxRAM=1g"]


def psql(sql, db="postgres"):
    return subprocess.run(["psql", "-h", "127.0.0.1", "-U", "postgres", "-d", db, "-v", "ON_ERROR_STOP=1", "-qAt",
                           "-c", sql], check=True, capture_output=True, text=True).stdout.strip()


def fresh_database(name):
    psql(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
    psql(f"CREATE DATABASE {name}")


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _b64url(data):
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


class StandInIssuer:
    """OIDC discovery and a JWKS on 127.0.0.1, and RS256 tokens signed with its key (openssl)."""

    def __init__(self):
        key = subprocess.run(["openssl", "genrsa", "2048"], check=True, capture_output=True).stdout
        self._key = key
        modulus = subprocess.run(["openssl", "rsa", "-noout", "-modulus"], input=key, check=True,
                                 capture_output=True).stdout.decode().strip().split("=", 1)[1]
        n = _b64url(bytes.fromhex(modulus))
        self.port = free_port()
        self.issuer = f"http://127.0.0.1:{self.port}/realms/image"
        docs = {
            "/realms/image/.well-known/openid-configuration": {
                "issuer": self.issuer, "jwks_uri": self.issuer + "/jwks",
                "token_endpoint": self.issuer + "/token", "authorization_endpoint": self.issuer + "/auth",
                "id_token_signing_alg_values_supported": ["RS256"]},
            "/realms/image/jwks": {"keys": [{"kty": "RSA", "kid": "image", "use": "sig", "alg": "RS256", "n": n,
                                             "e": "AQAB"}]},
        }

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_GET(self):
                doc = docs.get(self.path)
                body = json.dumps(doc).encode() if doc else b"{}"
                self.send_response(200 if doc else 404)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *args):
                pass

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", self.port), Handler)
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def token(self, subject, roles, scope="openid resources:read", audience="quaestor", lifetime=600):
        """A signed access token as an IdP would issue it: issuer, audience, expiry, realm roles, scope."""
        now = int(time.time())
        header = {"alg": "RS256", "typ": "JWT", "kid": "image"}
        claims = {"iss": self.issuer, "sub": subject, "aud": audience, "azp": "image-check", "scope": scope,
                  "realm_access": {"roles": list(roles)}, "iat": now, "exp": now + lifetime}
        signing_input = (_b64url(json.dumps(header).encode()) + "." + _b64url(json.dumps(claims).encode())).encode()
        with tempfile.NamedTemporaryFile() as k:
            k.write(self._key)
            k.flush()
            signature = subprocess.run(["openssl", "dgst", "-sha256", "-sign", k.name], input=signing_input,
                                       check=True, capture_output=True).stdout
        return signing_input.decode() + "." + _b64url(signature)

    def close(self):
        self.server.shutdown()


class ImageRoot:
    """The image's file system in a temporary directory, and its entrypoint run there."""

    def __init__(self, image):
        self.image = image
        self.root = tempfile.mkdtemp(prefix="quaestor-image-")
        os.chmod(self.root, 0o755)  # the image's / as any image has it: traversable by its non-root user
        self.mounted = []
        with tarfile.open(image) as t:
            manifest = json.load(t.extractfile("manifest.json"))[0]
            self.config = json.load(t.extractfile(manifest["Config"]))
            for layer in manifest["Layers"]:
                with tarfile.open(fileobj=t.extractfile(layer)) as lt:
                    # fully_trusted keeps modes as the image has them (/tmp 1777); the tarball is the one just built
                    lt.extractall(self.root, filter="fully_trusted") if hasattr(tarfile, "fully_trusted_filter") \
                        else lt.extractall(self.root)
        cfg = self.config["config"]
        self.user = cfg.get("User", "")
        self.uid = int(self.user.split(":")[0]) if self.user else 0
        self.workdir = cfg.get("WorkingDir") or "/"
        self.entrypoint = (cfg.get("Entrypoint") or []) + (cfg.get("Cmd") or [])
        self.env = dict(e.split("=", 1) for e in cfg.get("Env", []))
        # A container runtime always gives the process /proc (the dynamic loader resolves $ORIGIN through it) and
        # /dev (without /dev/urandom the JVM seeds SecureRandom by spinning threads: seconds of CPU at start).
        for name, how in [("proc", ["-t", "proc", "proc"]), ("dev", ["--bind", "/dev"])]:
            target = os.path.join(self.root, name)
            os.makedirs(target, exist_ok=True)
            subprocess.run(["mount"] + how + [target], check=True)
            self.mounted.append(target)

    def path(self, inside):
        return os.path.join(self.root, inside.lstrip("/"))

    def java_feature_version(self):
        """The major Java version of the image's `java` (the `release` file beside its bin/), or 0 if unknown."""
        for d in self.env.get("PATH", "").split(":"):
            if d and os.path.exists(os.path.join(self.path(d), "java")):
                release = os.path.join(self.path(os.path.dirname(d.rstrip("/"))), "release")
                if os.path.exists(release):
                    for line in open(release):
                        if line.startswith("JAVA_VERSION="):
                            return int(line.split("=", 1)[1].strip().strip('"').split(".")[0])
        return 0

    def provision_pod_files(self):
        """Policies, content and an audit signing key where deploy/base mounts them, readable by the image's user."""
        shutil.copytree(os.path.join(REPO, "policies"), self.path("/etc/quaestor/policies"), dirs_exist_ok=True)
        shutil.copytree(os.path.join(REPO, "content"), self.path("/srv/content"), dirs_exist_ok=True)
        secrets = self.path("/var/run/secrets/quaestor")
        os.makedirs(secrets, exist_ok=True)
        key = subprocess.run(["openssl", "genpkey", "-algorithm", "ed25519"], check=True, capture_output=True).stdout
        with open(os.path.join(secrets, "audit-signing-key"), "wb") as f:
            f.write(key)
        for d in ["etc/quaestor", "srv/content", "var/run/secrets/quaestor"]:
            for dirpath, _, files in os.walk(self.path(d)):
                os.chmod(dirpath, 0o755)
                for name in files:
                    os.chmod(os.path.join(dirpath, name), 0o644)

    def pod_env(self, issuer, db, port):
        """The environment of a pod of deploy/base (config.env and the Deployment), pointed at local services."""
        env = dict(self.env)
        env.update({
            "QUAESTOR_OIDC_ISSUER": issuer, "QUAESTOR_OIDC_AUDIENCE": "quaestor",
            "QUAESTOR_DB_URL": f"jdbc:postgresql://127.0.0.1:5432/{db}",
            "QUAESTOR_DB_USER": "postgres", "QUAESTOR_DB_PASSWORD": "trust",
            "QUAESTOR_MIGRATE_AT_START": "false",
            "QUAESTOR_POLICIES_PATH": "/etc/quaestor/policies",
            "QUAESTOR_MOUNTS_DOCS_ROOT": "/srv/content/docs",
            "QUAESTOR_MOUNTS_FIXTURES_FILE": "/srv/content/fixtures.yaml",
            "QUAESTOR_AUDIT_SIGNING_KEY_FILE": "/var/run/secrets/quaestor/audit-signing-key",
            "QUAESTOR_SHUTDOWN_DELAY": "0S",
            "QUARKUS_HTTP_PORT": str(port),
        })
        return env

    def migrate(self, db, timeout=300):
        """The entrypoint as the migration Job runs it (migrate and exit, no IdP) on a fresh database `db`."""
        fresh_database(db)
        env = self.pod_env("http://127.0.0.1:9/realms/unused", db, free_port())
        env.update({"QUARKUS_INIT_AND_EXIT": "true", "QUAESTOR_MIGRATE_AT_START": "true"})
        return self.run(self.entrypoint, env, timeout)

    def _enter(self):
        os.chroot(self.root)
        os.chdir(self.workdir)
        os.setgroups([])
        os.setgid(self.uid)
        os.setuid(self.uid)

    def run(self, argv, env, timeout):
        """Runs argv inside the image to its exit; returns the CompletedProcess."""
        return subprocess.run(argv, env=env, preexec_fn=self._enter, capture_output=True, text=True, timeout=timeout)

    def start(self, argv, env, log):
        """Starts argv inside the image in the background, its output to the file log."""
        out = open(log, "w")
        return subprocess.Popen(argv, env=env, preexec_fn=self._enter, stdout=out, stderr=subprocess.STDOUT)

    def close(self):
        for m in self.mounted:
            subprocess.run(["umount", m], check=False)
        shutil.rmtree(self.root, ignore_errors=True)


def mcp(port, token, body, session=None):
    """One MCP request (2025-06-18) with a bearer token; returns the session id it answered with and its JSON."""
    headers = {"Authorization": "Bearer " + token, "Content-Type": "application/json",
               "Accept": "application/json, text/event-stream", "MCP-Protocol-Version": "2025-06-18"}
    if session:
        headers["Mcp-Session-Id"] = session
    req = urllib.request.Request(f"http://127.0.0.1:{port}/mcp", data=json.dumps(body).encode(), headers=headers)
    with urllib.request.urlopen(req, timeout=10) as r:
        return r.headers.get("Mcp-Session-Id"), json.loads(r.read())


READ_URI = "file:///docs/trials/onco-734/summary.md"


def initialize(port, token, client):
    """Opens an MCP session for a token; returns its id."""
    session, _ = mcp(port, token, {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": client, "version": "1"}}})
    return session


def reads(port, tokens, seconds, client="image-load"):
    """Audited reads of READ_URI for `seconds`, one thread and one session per token, each read waiting for the
    last; returns (served, refused). A refusal (a rate limit, say) is counted, not raised: it is work a pod does."""
    served, refused, failures = [0], [0], []
    lock = threading.Lock()
    deadline = time.monotonic() + seconds

    def client_loop(token):
        try:
            session = initialize(port, token, client)
            n = 0
            while time.monotonic() < deadline:
                n += 1
                try:
                    _, answer = mcp(port, token, {"jsonrpc": "2.0", "id": n + 1, "method": "resources/read",
                                                  "params": {"uri": READ_URI}}, session)
                    ok = "result" in answer
                except urllib.error.HTTPError as e:
                    ok = False
                    if e.code not in (429, 503):
                        raise
                with lock:
                    served[0] += ok
                    refused[0] += not ok
        except Exception as e:  # noqa: BLE001 - raised again below, in the caller's thread
            failures.append(e)

    threads = [threading.Thread(target=client_loop, args=(t,)) for t in tokens]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    if failures:
        raise RuntimeError(f"audited reads failed: {failures[0]!r}") from failures[0]
    return served[0], refused[0]


def with_jvm_options(argv, options):
    """The entrypoint with JVM options added right after the java executable."""
    return argv[:1] + list(options) + argv[1:]


def await_ready(proc, port, within):
    """Seconds from now until /q/health/ready answers 200 (polled every 10 ms), or an exception."""
    start = time.monotonic()
    url = f"http://127.0.0.1:{port}/q/health/ready"
    while time.monotonic() - start < within:
        if proc.poll() is not None:
            raise RuntimeError(f"the server exited with {proc.returncode} before it was ready")
        try:
            with urllib.request.urlopen(url, timeout=1) as r:
                if r.status == 200:
                    return time.monotonic() - start
        except (urllib.error.URLError, ConnectionError, OSError):
            pass
        time.sleep(0.01)
    raise RuntimeError(f"not ready within {within} s")


def stop(proc, within=60):
    """SIGTERM, as Kubernetes stops a pod; seconds until it exited."""
    start = time.monotonic()
    proc.terminate()
    try:
        proc.wait(within)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()
        raise RuntimeError(f"the server did not stop within {within} s of SIGTERM")
    return time.monotonic() - start
