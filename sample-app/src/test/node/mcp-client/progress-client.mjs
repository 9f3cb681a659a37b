// Calls a tool of the sample with the official TypeScript SDK client, asking for progress (given onprogress, the
// SDK sends a progressToken), and prints one JSON object per line on stdout: {"progress": {...}} for each
// notifications/progress, then {"result": {...}} when the call completes (for delete_file, after a person approved it).
// Usage: node progress-client.mjs http://localhost:8080/mcp delete_file '{"path":"notes.txt"}'
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CallToolResultSchema } from '@modelcontextprotocol/sdk/types.js';

const [url, tool, args] = process.argv.slice(2);
if (!url || !tool || !args) {
  console.error('usage: node progress-client.mjs <mcp-url> <tool> <arguments-json>');
  process.exit(2);
}

const client = new Client({ name: 'ts-sdk-progress-test', version: '1.0.0' });
const transport = new StreamableHTTPClientTransport(new URL(url));
await client.connect(transport);

const result = await client.callTool({ name: tool, arguments: JSON.parse(args) }, CallToolResultSchema, {
  onprogress: (progress) => console.log(JSON.stringify({ progress })),
  // The call waits for a person: each notification tells the client it is still alive
  resetTimeoutOnProgress: true,
  timeout: 60000,
});
console.log(JSON.stringify({ result: { isError: result.isError ?? false, text: result.content[0]?.text } }));

await transport.terminateSession();
await client.close();
