// Connects to an MCP server with the official TypeScript SDK 2.x client, which speaks MCP 2026-07-28 (no session:
// server/discover, then every request carries its version and capabilities), lists the tools, calls a structured
// tool and a call with a refused argument, and prints what it saw as one JSON object on stdout.
// Usage: node modern-client.mjs http://localhost:8080/mcp
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';

const url = process.argv[2];
if (!url) {
  console.error('usage: node modern-client.mjs <mcp-url>');
  process.exit(2);
}

const client = new Client({ name: 'ts-sdk-2-test', version: '1.0.0' }, { versionNegotiation: { mode: 'auto' } });
const transport = new StreamableHTTPClientTransport(new URL(url));
await client.connect(transport);

const { tools } = await client.listTools();
const weather = await client.callTool({ name: 'get_weather', arguments: { city: 'Typescript Town' } });
const refused = await client.callTool({ name: 'get_weather', arguments: { city: 'Lisbon', country: 'PT' } });

console.log(JSON.stringify({
  protocolVersion: client.getNegotiatedProtocolVersion() ?? null,
  era: client.getProtocolEra() ?? null,
  sessionId: transport.sessionId ?? null,
  serverName: client.getServerVersion()?.name ?? null,
  tools: tools.map((tool) => tool.name).sort(),
  weather: { isError: weather.isError ?? false, structuredContent: weather.structuredContent ?? null },
  refused: { isError: refused.isError ?? false, text: refused.content[0]?.text },
}));

await client.close();
