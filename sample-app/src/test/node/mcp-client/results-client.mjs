// Connects to an MCP server over Streamable HTTP with the official TypeScript SDK client, reads a workspace file
// that is longer than the server's result limit and one that holds passwords, and prints what it got as one JSON
// object on stdout.
// Usage: node results-client.mjs http://localhost:8080/mcp <long-file> <config-file>
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

const [url, longFile, configFile] = process.argv.slice(2);
if (!url || !longFile || !configFile) {
  console.error('usage: node results-client.mjs <mcp-url> <long-file> <config-file>');
  process.exit(2);
}

const client = new Client({ name: 'ts-sdk-results-test', version: '1.0.0' });
const transport = new StreamableHTTPClientTransport(new URL(url));
await client.connect(transport);

const long = await client.callTool({ name: 'read_file', arguments: { path: longFile } });
const config = await client.callTool({ name: 'read_file', arguments: { path: configFile } });

console.log(JSON.stringify({
  long: { isError: long.isError ?? false, length: long.content[0]?.text.length, end: long.content[0]?.text.slice(-120) },
  config: { isError: config.isError ?? false, text: config.content[0]?.text },
}));

await transport.terminateSession();
await client.close();
