#!/usr/bin/env node
// The MCP TypeScript SDK v2 client (@modelcontextprotocol/client 2.4.0), pinned to protocol revision 2026-07-28,
// driven line by line: each line on stdin is a command {"id":…,"cmd":…,"args":{…}}, and each is answered by one
// line on stdout, {"id":…,"ok":true,"result":…} or {"id":…,"ok":false,"error":…}. TwoClientsTest runs it beside the
// MCP Java SDK against the same server; it can also be run by hand:
//
//   MCP_URL=http://127.0.0.1:8080/mcp TOKEN=<bearer token> node ts-client-2026.mjs
//   {"id":1,"cmd":"connect"}
//   {"id":2,"cmd":"read","args":{"uri":"test://static-text"}}
//
// Commands: connect, list, templates, read {uri}, listen {filter}, wait {uri, since, ms}, close.
import {
    Client,
    StreamableHTTPClientTransport,
    ProtocolError,
    ResourceNotFoundError,
    SdkError,
    SdkHttpError
} from '@modelcontextprotocol/client';
import { createInterface } from 'node:readline';

const url = new URL(process.env.MCP_URL ?? 'http://127.0.0.1:8080/mcp');
const token = process.env.TOKEN;
if (!token) {
    console.error('set TOKEN to a bearer token for the server');
    process.exit(2);
}

// Every POST the client makes, by its Mcp-Method header: how many pages a listing took.
const posts = [];
const recordingFetch = async (input, init) => {
    const response = await fetch(input, init);
    posts.push({ method: new Headers(init?.headers).get('mcp-method'), status: response.status });
    return response;
};

const transport = new StreamableHTTPClientTransport(url, { authProvider: { token: async () => token }, fetch: recordingFetch });
const client = new Client(
    { name: 'quaestor-ts-e2e', version: '2.4.0' },
    { capabilities: {}, versionNegotiation: { mode: { pin: '2026-07-28' } } }
);

const notifications = [];
for (const method of ['notifications/resources/updated', 'notifications/resources/list_changed']) {
    client.setNotificationHandler(method, (n) => {
        notifications.push({
            method: n.method,
            uri: n.params?.uri ?? null,
            subscriptionId: n.params?._meta?.['io.modelcontextprotocol/subscriptionId'] ?? null,
            at: Date.now()
        });
    });
}
let subscription = null;

function describe(e) {
    if (e instanceof ResourceNotFoundError) return { kind: 'ResourceNotFoundError', code: e.code, uri: e.uri, data: e.data ?? null };
    if (e instanceof ProtocolError) return { kind: 'ProtocolError', code: e.code, message: e.message, data: e.data ?? null };
    if (e instanceof SdkHttpError) return { kind: 'SdkHttpError', status: e.data?.status ?? null, message: e.message };
    if (e instanceof SdkError) return { kind: 'SdkError', code: e.code, message: e.message };
    return { kind: 'Error', message: String(e?.stack ?? e) };
}

const commands = {
    async connect() {
        await client.connect(transport);
        return {
            protocolVersion: client.getNegotiatedProtocolVersion?.() ?? null,
            server: client.getServerVersion() ?? null,
            capabilities: client.getServerCapabilities() ?? null
        };
    },
    async list() {
        const before = posts.length;
        const { resources } = await client.listResources();
        return {
            uris: resources.map((r) => r.uri),
            pages: posts.slice(before).filter((p) => p.method === 'resources/list').length,
            annotations: Object.fromEntries(resources.filter((r) => r.annotations).map((r) => [r.uri, r.annotations]))
        };
    },
    async templates() {
        const { resourceTemplates } = await client.listResourceTemplates();
        return { templates: resourceTemplates.map((t) => ({ uriTemplate: t.uriTemplate, annotations: t.annotations ?? null })) };
    },
    async read({ uri }) {
        const r = await client.readResource({ uri });
        const c = r.contents[0];
        return {
            uri: c.uri,
            mimeType: c.mimeType ?? null,
            text: c.text ?? null,
            blob: c.blob ?? null,
            resultType: r.resultType ?? null,
            ttlMs: r.ttlMs ?? null,
            cacheScope: r.cacheScope ?? null
        };
    },
    async listen({ filter }) {
        subscription = await client.listen(filter);
        subscription.closed.then((why) => notifications.push({ method: 'closed', uri: null, why, at: Date.now() }));
        return { honored: subscription.honoredFilter ?? null };
    },
    async wait({ uri, since, ms }) {
        const deadline = Date.now() + ms;
        while (Date.now() < deadline) {
            const n = notifications.find((x) => x.uri === uri && x.at >= since);
            if (n) return { received: true, ...n };
            await new Promise((resolve) => setTimeout(resolve, 20));
        }
        return { received: false };
    },
    async close() {
        if (subscription) await subscription.close();
        await client.close();
        return { closed: true };
    }
};

const lines = createInterface({ input: process.stdin });
for await (const line of lines) {
    if (!line.trim()) continue;
    let request;
    try {
        request = JSON.parse(line);
    } catch (e) {
        console.log(JSON.stringify({ id: null, ok: false, error: { kind: 'BadCommand', message: String(e) } }));
        continue;
    }
    const command = commands[request.cmd];
    try {
        if (!command) throw new Error(`unknown command ${request.cmd}`);
        const result = await command(request.args ?? {});
        console.log(JSON.stringify({ id: request.id, ok: true, result }));
    } catch (e) {
        console.log(JSON.stringify({ id: request.id, ok: false, error: describe(e) }));
    }
    if (request.cmd === 'close') break;
}
process.exit(0);
