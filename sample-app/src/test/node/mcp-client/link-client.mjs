// Approval by link with the official TypeScript SDK client: the client declares URL-mode elicitation
// (capabilities.elicitation.url), calls a tool that needs approval, and answers the server's URL elicitation with
// accept ("opened") after printing it. Prints one JSON line per event on stdout:
//   {"elicitation": {"mode", "url", "elicitationId", "message"}}   as soon as the link arrives (a person opens it)
//   {"result": {"isError", "text"}, "completed": [elicitationId, ...]}   when the call has come back
// Usage: node link-client.mjs http://localhost:8080/mcp <tool> '<arguments as JSON>'
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema, ElicitationCompleteNotificationSchema } from '@modelcontextprotocol/sdk/types.js';

const [url, tool, argumentsJson] = process.argv.slice(2);
if (!url || !tool || !argumentsJson) {
  console.error("usage: node link-client.mjs <mcp-url> <tool> '<arguments as JSON>'");
  process.exit(2);
}

const client = new Client({ name: 'ts-sdk-link', version: '1.0.0' },
  { capabilities: { elicitation: { url: {} } } });

client.setRequestHandler(ElicitRequestSchema, async (request) => {
  const { mode, url: link, elicitationId, message } = request.params;
  console.log(JSON.stringify({ elicitation: { mode, url: link, elicitationId, message } }));
  // accept: the link was shown to (opened by) the user; the approver decides in the console
  return mode === 'url' ? { action: 'accept' } : { action: 'decline' };
});

const completed = [];
let onCompleted;
const firstCompletion = new Promise((resolve) => { onCompleted = resolve; });
client.setNotificationHandler(ElicitationCompleteNotificationSchema, (notification) => {
  completed.push(notification.params.elicitationId);
  onCompleted();
});

const transport = new StreamableHTTPClientTransport(new URL(url));
await client.connect(transport);

// The call waits for a person: longer than the SDK's default request timeout of 60 s is allowed
const result = await client.callTool({ name: tool, arguments: JSON.parse(argumentsJson) }, undefined,
  { timeout: 110_000 });
// notifications/elicitation/complete travels on the session's own stream: give it a bounded moment to arrive
await Promise.race([firstCompletion, new Promise((resolve) => setTimeout(resolve, 10_000))]);

console.log(JSON.stringify({
  result: { isError: result.isError ?? false, text: result.content?.[0]?.text ?? null },
  completed,
}));

await transport.terminateSession();
await client.close();
