// Connects to an MCP server over Streamable HTTP with the official TypeScript SDK client, calls delete_file (which
// waits for a human's approval), finds its pending request in the approval API, cancels the call with an AbortSignal
// (the SDK sends notifications/cancelled), waits until the request has left the approval API and its audit record is
// written, and prints what it saw as one JSON object on stdout.
// Usage: node cancel-client.mjs http://localhost:8080/mcp http://localhost:8080/agent/approvals user:password <file>
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

const [url, approvalsUrl, credentials, file] = process.argv.slice(2);
if (!url || !approvalsUrl || !credentials || !file) {
  console.error('usage: node cancel-client.mjs <mcp-url> <approvals-url> <user:password> <file>');
  process.exit(2);
}

const authorization = 'Basic ' + Buffer.from(credentials).toString('base64');

async function approvals(path = '') {
  const response = await fetch(approvalsUrl + path, { headers: { Authorization: authorization, Accept: 'application/json' } });
  if (response.status !== 200) {
    throw new Error(`GET ${approvalsUrl + path}: ${response.status} ${await response.text()}`);
  }
  return response.json();
}

async function until(what, condition) {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const value = await condition();
    if (value) {
      return value;
    }
    if (Date.now() > deadline) {
      throw new Error(`timed out waiting until ${what}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const forFile = (request) => request.tool === 'delete_file' && request.arguments?.path === file;

const client = new Client({ name: 'ts-sdk-cancel-test', version: '1.0.0' });
const transport = new StreamableHTTPClientTransport(new URL(url));
await client.connect(transport);

const stop = new AbortController();
const call = client.callTool({ name: 'delete_file', arguments: { path: file } }, undefined, { signal: stop.signal })
  .then((result) => ({ settled: 'resolved', result }), (error) => ({ settled: 'rejected', message: String(error?.message ?? error) }));

const pending = await until('the call waits for approval', async () => (await approvals()).find(forFile));
stop.abort('the user pressed stop');
const outcome = await call;
await until('the request left the approval API', async () => !(await approvals()).some((request) => request.id === pending.id));
// The call's audit record is written by the waiting call once it wakes, a moment after its request was withdrawn
const audit = await until('the audit records the request', async () => {
  const records = (await approvals('/audit')).filter((record) => record.requestId === pending.id);
  return (records.length > 0) ? records : undefined;
});

console.log(JSON.stringify({
  pending: { id: pending.id, tool: pending.tool, summary: pending.summary },
  call: outcome,
  pendingAfter: (await approvals()).filter(forFile).map((request) => request.id),
  audit,
}));

await transport.terminateSession();
await client.close();
