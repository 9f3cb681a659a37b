// Connects to an MCP server that requires bearer tokens, with the official TypeScript SDK client: first without a
// token (the server must refuse), then with the token on every request (requestInit headers), listing the tools and
// calling one. Prints what it saw as one JSON object on stdout.
// Usage: node bearer-client.mjs http://localhost:8080/mcp <access-token>
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

const [url, token] = process.argv.slice(2);
if (!url || !token) {
  console.error('usage: node bearer-client.mjs <mcp-url> <access-token>');
  process.exit(2);
}

let withoutToken;
try {
  const anonymous = new Client({ name: 'ts-sdk-anonymous', version: '1.0.0' });
  await anonymous.connect(new StreamableHTTPClientTransport(new URL(url)));
  withoutToken = { connected: true, status: null };
  await anonymous.close();
} catch (error) {
  // The SDK's StreamableHTTPError carries the HTTP status as its code
  withoutToken = { connected: false, status: error?.code ?? null };
}

const client = new Client({ name: 'ts-sdk-bearer', version: '1.0.0' });
const transport = new StreamableHTTPClientTransport(new URL(url), {
  requestInit: { headers: { Authorization: `Bearer ${token}` } },
});
await client.connect(transport);
const { tools } = await client.listTools();
const weather = await client.callTool({ name: 'get_weather', arguments: { city: 'Bearer Town' } });

console.log(JSON.stringify({
  withoutToken,
  tools: tools.map((tool) => tool.name),
  weather: { isError: weather.isError ?? false, structuredContent: weather.structuredContent ?? null },
}));

await transport.terminateSession();
await client.close();
