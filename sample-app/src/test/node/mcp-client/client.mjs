// Connects to an MCP server over Streamable HTTP with the official TypeScript SDK client, lists the tools, calls a
// structured tool and a call with a refused argument, and prints what it saw as one JSON object on stdout.
// Usage: node client.mjs http://localhost:8080/mcp
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

const url = process.argv[2];
if (!url) {
  console.error('usage: node client.mjs <mcp-url>');
  process.exit(2);
}

const client = new Client({ name: 'ts-sdk-test', version: '1.0.0' });
const transport = new StreamableHTTPClientTransport(new URL(url));
await client.connect(transport);

const { tools } = await client.listTools();
const weather = await client.callTool({ name: 'get_weather', arguments: { city: 'Typescript Town' } });
const refused = await client.callTool({ name: 'get_weather', arguments: { city: 'Lisbon', country: 'PT' } });

console.log(JSON.stringify({
  protocolVersion: transport.protocolVersion ?? null,
  tools: Object.fromEntries(tools.map((tool) => [tool.name, {
    title: tool.title ?? null,
    annotations: tool.annotations ?? null,
    hasOutputSchema: tool.outputSchema !== undefined,
  }])),
  weather: { isError: weather.isError ?? false, structuredContent: weather.structuredContent ?? null, text: weather.content[0]?.text },
  refused: { isError: refused.isError ?? false, text: refused.content[0]?.text },
}));

await transport.terminateSession();
await client.close();
