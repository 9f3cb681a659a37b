// Calls a tool of the sample with the official TypeScript SDK client, sending the caller's W3C trace context in the
// request's _meta (traceparent, as the MCP specification's SEP-414 puts it), and prints the result as one JSON object
// on stdout.
// Usage: node trace-client.mjs http://localhost:8080/mcp list_files '{}' 00-<trace id>-<span id>-01
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

const [url, tool, args, traceparent] = process.argv.slice(2);
if (!url || !tool || !args || !traceparent) {
  console.error('usage: node trace-client.mjs <mcp-url> <tool> <arguments-json> <traceparent>');
  process.exit(2);
}

const client = new Client({ name: 'ts-sdk-trace-test', version: '1.0.0' });
const transport = new StreamableHTTPClientTransport(new URL(url));
await client.connect(transport);

const result = await client.callTool({
  name: tool,
  arguments: JSON.parse(args),
  _meta: { traceparent, tracestate: 'ts-client=test', baggage: 'client=ts-sdk' },
});
console.log(JSON.stringify({ isError: result.isError ?? false, text: result.content[0]?.text }));

await transport.terminateSession();
await client.close();
