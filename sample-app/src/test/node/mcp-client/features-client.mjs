// Calls the sample's tools that return an image and that talk to their client, with the official TypeScript SDK
// client, which declares form elicitation and sampling, and prints what it saw as one JSON object on stdout.
// Mode "chart": calls weather_chart. Mode "trip": asks for messages of level warning and up (logging/setLevel) and
// calls plan_trip, answering its elicitation (7 days, relaxed) and its sampling request (a fixed summary, as a model
// would).
// Mode "cancel": calls plan_trip and never answers its elicitation; once the question arrived, it aborts the call with
// an AbortSignal (the SDK sends notifications/cancelled) and waits up to 10 s for the server to withdraw the
// elicitation in turn (its notifications/cancelled aborts the signal the SDK gave the elicitation handler).
// Usage: node features-client.mjs http://localhost:8080/mcp chart|trip|cancel <city>
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {
  CreateMessageRequestSchema,
  ElicitRequestSchema,
  LoggingMessageNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';

const [url, mode, city] = process.argv.slice(2);
if (!url || !['chart', 'trip', 'cancel'].includes(mode) || !city) {
  console.error('usage: node features-client.mjs <mcp-url> chart|trip|cancel <city>');
  process.exit(2);
}

const client = new Client({ name: 'ts-sdk-features-test', version: '1.0.0' },
  { capabilities: { elicitation: { form: {} }, sampling: {} } });
const logs = [];
client.setNotificationHandler(LoggingMessageNotificationSchema, (notification) => {
  const { level, logger, data } = notification.params;
  logs.push({ level, logger, data });
});

const text = (result) => result.content.filter((part) => part.type === 'text').map((part) => part.text).join('\n');

async function chart(transport) {
  await client.connect(transport);
  const result = await client.callTool({ name: 'weather_chart', arguments: { city } });
  return {
    isError: result.isError ?? false,
    types: result.content.map((part) => part.type),
    text: text(result),
    images: result.content.filter((part) => part.type === 'image')
      .map((part) => ({ mimeType: part.mimeType, data: part.data })),
  };
}

async function trip(transport) {
  const elicitations = [];
  client.setRequestHandler(ElicitRequestSchema, async (request) => {
    elicitations.push(request.params);
    return { action: 'accept', content: { days: 7, pace: 'relaxed' } };
  });
  const samplings = [];
  client.setRequestHandler(CreateMessageRequestSchema, async (request) => {
    samplings.push(request.params);
    return {
      role: 'assistant',
      content: { type: 'text', text: 'A relaxed week between museums and the harbour.' },
      model: 'ts-test-model',
      stopReason: 'endTurn',
    };
  });
  await client.connect(transport);
  await client.setLoggingLevel('warning');

  const result = await client.callTool({ name: 'plan_trip', arguments: { city } });
  return {
    isError: result.isError ?? false,
    text: text(result),
    logs,
    elicitations,
    samplings,
  };
}

async function cancel(transport) {
  let elicited;
  const elicitation = new Promise((resolve) => { elicited = resolve; });
  let withdrawn;
  const withdrawal = new Promise((resolve) => { withdrawn = resolve; });
  client.setRequestHandler(ElicitRequestSchema, (request, extra) => {
    extra.signal.addEventListener('abort', () => withdrawn({ reason: String(extra.signal.reason) }), { once: true });
    elicited(request.params);
    // The user walked away: the question is never answered
    return new Promise(() => {});
  });
  await client.connect(transport);

  const stop = new AbortController();
  const call = client.callTool({ name: 'plan_trip', arguments: { city } }, undefined, { signal: stop.signal })
    .then((result) => ({ settled: 'resolved', text: text(result) }),
      (error) => ({ settled: 'rejected', message: String(error?.message ?? error) }));
  const question = await elicitation;
  stop.abort('the user closed the trip planner');
  const outcome = await call;
  const elicitationWithdrawn = await Promise.race([withdrawal,
    new Promise((resolve) => setTimeout(() => resolve(null), 10_000))]);
  return { elicitation: { message: question.message }, call: outcome, elicitationWithdrawn };
}

const transport = new StreamableHTTPClientTransport(new URL(url));
const seen = await { chart, trip, cancel }[mode](transport);
console.log(JSON.stringify(seen));

await transport.terminateSession();
await client.close();
