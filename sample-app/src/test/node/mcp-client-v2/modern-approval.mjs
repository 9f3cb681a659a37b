// Calls delete_file (which needs approval) with the official TypeScript SDK 2.x client on MCP 2026-07-28, and prints
// what it saw as one JSON object on stdout. Mode "user": the client declares elicitation and its handler approves,
// so the approval is an input request of the call (input_required) that the client answers on its retry. Mode
// "console": the client declares no elicitation and retries the call (requestState only) until an approver decides.
// Usage: node modern-approval.mjs http://localhost:8080/mcp user|console <path>
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';

const [url, mode, path] = process.argv.slice(2);
if (!url || !mode || !path) {
  console.error('usage: node modern-approval.mjs <mcp-url> user|console <path>');
  process.exit(2);
}

const capabilities = (mode === 'user') ? { elicitation: { form: {} } } : {};
const client = new Client({ name: 'ts-sdk-2-approver', version: '1.0.0' },
  { versionNegotiation: { mode: 'auto' }, capabilities });
const asked = [];
if (mode === 'user') {
  client.setRequestHandler('elicitation/create', async (request) => {
    asked.push(request.params.message);
    return { action: 'accept', content: { decision: 'approve' } };
  });
}
const transport = new StreamableHTTPClientTransport(new URL(url));
await client.connect(transport);
const result = await client.callTool({ name: 'delete_file', arguments: { path } });

console.log(JSON.stringify({
  protocolVersion: client.getNegotiatedProtocolVersion() ?? null,
  asked,
  isError: result.isError ?? false,
  text: result.content[0]?.text ?? null,
}));

await client.close();
