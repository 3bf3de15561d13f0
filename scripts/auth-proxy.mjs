#!/usr/bin/env node
// auth-proxy.mjs — tiny, dependency-free loopback reverse proxy that adds
// "Authorization: Bearer <token>" to every request it forwards.
//
// Why: the MCP conformance suite (@modelcontextprotocol/conformance) has no
// option or env var for extra HTTP headers, but Quaestor requires a bearer
// token. Point the suite at this proxy and the proxy at Quaestor.
//
// Usage:
//   node scripts/auth-proxy.mjs --listen 127.0.0.1:8931 \
//        --target http://127.0.0.1:8080 --token-file /path/to/token
//   TOKEN=secret node scripts/auth-proxy.mjs --listen 127.0.0.1:0 --target http://127.0.0.1:8080
//
// Options:
//   --listen HOST:PORT   loopback address to bind (127.0.0.1, ::1 / [::1], localhost).
//                        A bare PORT means 127.0.0.1:PORT. Port 0 picks a free port.
//                        Default 127.0.0.1:0.
//   --target URL         http:// URL of the upstream server. If it has a path
//                        (e.g. http://127.0.0.1:8080/base) it is prefixed to the
//                        incoming request path; otherwise the path is kept as is.
//   --token-file FILE    file holding the token (surrounding whitespace trimmed).
//                        Falls back to the TOKEN environment variable.
//   --quiet              do not log one line per request to stderr.
//
// Behaviour:
//   * Every method is forwarded; request and response bodies are streamed
//     (piped), never buffered, so text/event-stream responses flow through
//     event by event and long-lived GET SSE streams stay open.
//   * All request headers are forwarded unchanged (same names, same case,
//     same values) — in particular Host and Origin, so Host/Origin
//     (DNS-rebinding) validation on the target sees exactly what the client
//     sent. No X-Forwarded-* headers are added.
//   * Any Authorization header sent by the client is replaced by
//     "Authorization: Bearer <token>".
//   * Only hop-by-hop headers (Connection and the headers it names,
//     Keep-Alive, Proxy-Connection, TE, Trailer, Transfer-Encoding, Upgrade)
//     are dropped, as any HTTP/1.1 proxy must; Node re-frames the body itself.
//   * Upstream unreachable before a response started -> 502 with a short text body.
//   * On startup prints exactly one line to stdout:
//       auth-proxy listening on http://HOST:PORT -> TARGET
//     (useful with --listen 127.0.0.1:0 to learn the chosen port).
//   * Exits on SIGINT/SIGTERM.

import http from 'node:http';
import { readFileSync } from 'node:fs';
import process from 'node:process';

function fail(msg) {
  process.stderr.write(`auth-proxy: ${msg}\n`);
  process.exit(2);
}

function parseArgs(argv) {
  const opts = { listen: '127.0.0.1:0', target: undefined, tokenFile: undefined, quiet: false };
  for (let i = 0; i < argv.length; i++) {
    let arg = argv[i];
    let value;
    const eq = arg.indexOf('=');
    if (arg.startsWith('--') && eq > 0) {
      value = arg.slice(eq + 1);
      arg = arg.slice(0, eq);
    }
    const next = () => {
      if (value !== undefined) return value;
      if (i + 1 >= argv.length) fail(`missing value for ${arg}`);
      return argv[++i];
    };
    switch (arg) {
      case '--listen': opts.listen = next(); break;
      case '--target': opts.target = next(); break;
      case '--token-file': opts.tokenFile = next(); break;
      case '--quiet': opts.quiet = true; break;
      case '-h':
      case '--help':
        process.stdout.write(
          'usage: node auth-proxy.mjs --listen 127.0.0.1:PORT --target http://127.0.0.1:PORT2 ' +
          '[--token-file FILE | env TOKEN] [--quiet]\n');
        process.exit(0);
        break;
      default: fail(`unknown argument: ${arg}`);
    }
  }
  return opts;
}

const LOOPBACK = new Set(['127.0.0.1', '::1', 'localhost']);

function parseListen(spec) {
  let host = '127.0.0.1';
  let port;
  const bracket = /^\[([^\]]+)\]:(\d+)$/.exec(spec);
  if (bracket) {
    host = bracket[1];
    port = bracket[2];
  } else if (/^\d+$/.test(spec)) {
    port = spec;
  } else {
    const idx = spec.lastIndexOf(':');
    if (idx <= 0) fail(`--listen must be HOST:PORT or PORT, got "${spec}"`);
    host = spec.slice(0, idx);
    port = spec.slice(idx + 1);
  }
  if (!LOOPBACK.has(host)) fail(`refusing to bind to non-loopback address "${host}"`);
  const p = Number(port);
  if (!Number.isInteger(p) || p < 0 || p > 65535) fail(`invalid port "${port}"`);
  return { host, port: p };
}

const opts = parseArgs(process.argv.slice(2));
if (!opts.target) fail('--target is required');

let target;
try {
  target = new URL(opts.target);
} catch {
  fail(`invalid --target URL "${opts.target}"`);
}
if (target.protocol !== 'http:') fail('--target must be an http:// URL');
const targetPrefix = target.pathname.replace(/\/+$/, ''); // '' for "/" or no path

let token;
if (opts.tokenFile) {
  try {
    token = readFileSync(opts.tokenFile, 'utf8').trim();
  } catch (e) {
    fail(`cannot read --token-file: ${e.message}`);
  }
} else {
  token = (process.env.TOKEN ?? '').trim();
}
if (!token) fail('no token: pass --token-file FILE or set TOKEN');
if (/[\r\n]/.test(token)) fail('token must be a single line');
const authValue = `Bearer ${token}`;

const listen = parseListen(opts.listen);

const HOP_BY_HOP = new Set([
  'connection', 'keep-alive', 'proxy-connection', 'te', 'trailer',
  'transfer-encoding', 'upgrade',
]);

// Build a header object from rawHeaders, keeping the original name case and
// duplicate headers, minus hop-by-hop headers (and those listed in Connection).
function copyHeaders(rawHeaders, { dropAuthorization }) {
  const drop = new Set(HOP_BY_HOP);
  for (let i = 0; i < rawHeaders.length; i += 2) {
    if (rawHeaders[i].toLowerCase() === 'connection') {
      for (const t of rawHeaders[i + 1].split(',')) {
        const name = t.trim().toLowerCase();
        if (name) drop.add(name);
      }
    }
  }
  if (dropAuthorization) drop.add('authorization');
  const out = {};
  const caseOf = {};
  for (let i = 0; i < rawHeaders.length; i += 2) {
    const name = rawHeaders[i];
    const value = rawHeaders[i + 1];
    const lower = name.toLowerCase();
    if (drop.has(lower)) continue;
    const key = caseOf[lower] ?? (caseOf[lower] = name);
    if (key in out) {
      out[key] = Array.isArray(out[key]) ? [...out[key], value] : [out[key], value];
    } else {
      out[key] = value;
    }
  }
  return out;
}

const agent = new http.Agent({ keepAlive: true });

const server = http.createServer((req, res) => {
  const started = Date.now();
  const headers = copyHeaders(req.rawHeaders, { dropAuthorization: true });
  headers.Authorization = authValue;

  const upstream = http.request({
    protocol: target.protocol,
    hostname: target.hostname.replace(/^\[|\]$/g, ''),
    port: target.port || 80,
    method: req.method,
    path: targetPrefix + req.url,
    headers, // includes the client's Host header verbatim
    agent,
  });

  const log = (status) => {
    if (!opts.quiet) {
      process.stderr.write(
        `auth-proxy: ${req.method} ${req.url} -> ${status} (${Date.now() - started} ms)\n`);
    }
  };

  upstream.on('response', (up) => {
    const resHeaders = copyHeaders(up.rawHeaders, { dropAuthorization: false });
    res.writeHead(up.statusCode, up.statusMessage, resHeaders);
    // Send the status line and headers now, so e.g. an SSE client sees the
    // stream open before the first event arrives.
    res.flushHeaders();
    up.pipe(res);
    up.on('error', () => res.destroy());
    up.on('end', () => log(up.statusCode));
  });

  upstream.on('error', (err) => {
    if (!res.headersSent) {
      const body = `auth-proxy: upstream error: ${err.message}\n`;
      res.writeHead(502, { 'Content-Type': 'text/plain; charset=utf-8', 'Content-Length': Buffer.byteLength(body) });
      res.end(body);
      log(`502 (${err.code ?? err.message})`);
    } else {
      res.destroy();
    }
  });

  // Client went away (e.g. closed an SSE stream): tear down the upstream leg.
  res.on('close', () => {
    if (!res.writableFinished) {
      upstream.destroy();
      log('client closed');
    }
  });
  req.on('error', () => upstream.destroy());

  req.pipe(upstream);
});

// Long-lived streams (SSE) must not be cut by the server's own timeouts.
server.requestTimeout = 0;
server.timeout = 0;
server.keepAliveTimeout = 5000;

server.on('clientError', (err, socket) => {
  if (socket.writable) socket.end('HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n');
});

server.on('error', (err) => fail(`cannot listen on ${opts.listen}: ${err.message}`));

server.listen(listen.port, listen.host, () => {
  const addr = server.address();
  const host = addr.family === 'IPv6' || addr.family === 6 ? `[${addr.address}]` : addr.address;
  process.stdout.write(`auth-proxy listening on http://${host}:${addr.port} -> ${target.href}\n`);
});

for (const sig of ['SIGINT', 'SIGTERM']) {
  process.on(sig, () => {
    server.close();
    agent.destroy();
    process.exit(0);
  });
}
