// Runs one flow of the sample app with the official TypeScript SDK 2.x client (MCP 2026-07-28, no session), against
// one instance or several: the client's fetch sends its requests to the given MCP URLs in turn (strict round-robin,
// request by request) and records where each went. Prints what it saw as one JSON object on stdout.
// Usage: node modern-flows.mjs <flow> <mcp-url>[,<mcp-url>...] [<path> [<approvals-url> <user:password>]]
// Flows:
//   call              lists the tools and calls get_weather
//   user-approval     delete_file <path>; the client declares elicitation and its handler approves: the approval is
//                     the call's input request 'approval', which the SDK fulfils and answers on its retry
//   console-approval  delete_file <path> without elicitation: the SDK retries on the requestState alone until an
//                     approver decides (the test decides through the REST API)
//   tampered          as user-approval, but the retry's requestState is altered on its way to the server
//   task              archive_directory <path> as a task (the client declares the tasks extension); polls tasks/get
//                     until the task ends (the test approves it through the REST API meanwhile)
//   task-cancel       archive_directory <path> as a task; once its approval is pending in the approval API, cancels it
//                     (tasks/cancel), polls tasks/get until it is cancelled and the approval API until the request is
//                     gone
// Where the SDK (2.4.0) has no API for something, the script uses the SDK's own hooks, never hand-written MCP HTTP:
// - the round-robin and the tampering are fetch middleware (createMiddleware, applyMiddlewares) given to
//   StreamableHTTPClientTransport as its fetch; altering a requestState is no SDK feature;
// - the SDK has no client runtime for the 2026-07-28 tasks extension: it rejects the CreateTaskResult of a tools/call
//   (resultType "task") as an UnsupportedResultType error, and drops a listed tool's execution.taskSupport. The script
//   reads both from the transport's onmessage callback, which the client keeps and calls first for every JSON-RPC
//   message, and sends tasks/get and tasks/cancel with client.request() and an explicit result schema, the SDK's way
//   to send the methods of an extension.
// The approval API is no MCP: it is read with plain fetch and basic authentication.
import { applyMiddlewares, Client, createMiddleware, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';

const [flow, urlList, path, approvalsUrl, credentials] = process.argv.slice(2);
if (!flow || !urlList) {
  console.error('usage: node modern-flows.mjs <flow> <mcp-url>[,<mcp-url>...] [<path> [<approvals-url> <user:password>]]');
  process.exit(2);
}
const TASKS = 'io.modelcontextprotocol/tasks';
const ENDED = ['completed', 'failed', 'cancelled'];
// A Standard Schema that takes any result as it is (tasks/get and tasks/cancel have no schema in the SDK's registry on
// 2026-07-28)
const ANY_RESULT = { '~standard': { version: 1, vendor: 'agent-middleware-tests', validate: (value) => ({ value }) } };
const urls = urlList.split(',').map((url) => new URL(url));

// Every request, in order: the instance it was sent to (index in the URL list) and its MCP method
const requests = [];
let turn = 0;
const roundRobin = createMiddleware(async (next, input, init) => {
  const instance = turn++ % urls.length;
  const given = new URL(input instanceof Request ? input.url : String(input));
  const headers = new Headers(init?.headers);
  requests.push({ instance, method: headers.get('mcp-method') ?? bodyMethod(init) ?? init?.method ?? 'GET' });
  return next(new URL(given.pathname + given.search, urls[instance]), init);
});
const tampered = [];
const tamper = createMiddleware(async (next, input, init) => {
  if (flow === 'tampered' && typeof init?.body === 'string') {
    const message = JSON.parse(init.body);
    const state = message.params?.requestState;
    if (message.method === 'tools/call' && typeof state === 'string') {
      message.params.requestState = ((state[0] === 'A') ? 'B' : 'A') + state.slice(1);
      tampered.push(message.id);
      return next(input, { ...init, body: JSON.stringify(message) });
    }
  }
  return next(input, init);
});

const capabilities = {};
if (flow === 'user-approval' || flow === 'tampered') {
  capabilities.elicitation = { form: {} };
}
if (flow.startsWith('task')) {
  capabilities.extensions = { [TASKS]: {} };
}
const client = new Client({ name: 'ts-sdk-2-flows', version: '1.0.0' },
  { versionNegotiation: { mode: 'auto' }, capabilities });
const asked = [];
if (capabilities.elicitation) {
  client.setRequestHandler('elicitation/create', async (request) => {
    asked.push(request.params.message);
    return { action: 'accept', content: { decision: 'approve' } };
  });
}
const transport = new StreamableHTTPClientTransport(urls[0], { fetch: applyMiddlewares(tamper, roundRobin)(fetch) });
// The client chains the callback set before it connects, and calls it first
const created = [];
const listed = new Map();
transport.onmessage = (message) => {
  if (message.result?.resultType === 'task') {
    created.push(message.result);
  }
  for (const tool of (Array.isArray(message.result?.tools) ? message.result.tools : [])) {
    listed.set(tool.name, tool.execution?.taskSupport ?? null);
  }
};
await client.connect(transport);

const seen = { flow, protocolVersion: client.getNegotiatedProtocolVersion() ?? null };
switch (flow) {
  case 'call': {
    const { tools } = await client.listTools();
    const weather = await client.callTool({ name: 'get_weather', arguments: { city: 'Round Robin' } });
    // execution.taskSupport as sent: the SDK's 2026-07-28 Tool has no execution (core removed it; the tasks extension
    // brings it back), so listTools() drops it
    seen.tools = tools.map((tool) => ({ name: tool.name, taskSupport: listed.get(tool.name) ?? null }));
    seen.weather = { isError: weather.isError ?? false, structuredContent: weather.structuredContent ?? null };
    break;
  }
  case 'user-approval':
  case 'console-approval':
  case 'tampered': {
    seen.call = await settle(client.callTool({ name: 'delete_file', arguments: { path } }));
    seen.asked = asked;
    seen.tampered = tampered.length;
    break;
  }
  case 'task':
  case 'task-cancel': {
    seen.call = await settle(client.callTool({ name: 'archive_directory', arguments: { directory: path } }));
    seen.created = created[0] ?? null;
    if (!seen.created) {
      break;
    }
    const taskId = seen.created.taskId;
    if (flow === 'task-cancel') {
      seen.pending = await awaitApprovals((pending) => pending.find(archiving));
      seen.cancelled = await client.request({ method: 'tasks/cancel', params: { taskId } }, ANY_RESULT);
    }
    const statuses = [];
    let task;
    for (const deadline = Date.now() + 30000; Date.now() < deadline;) {
      task = await client.request({ method: 'tasks/get', params: { taskId } }, ANY_RESULT);
      if (statuses[statuses.length - 1] !== task.status) {
        statuses.push(task.status);
      }
      if (ENDED.includes(task.status)) {
        break;
      }
      await new Promise((resolve) => setTimeout(resolve, task.pollIntervalMs ?? 200));
    }
    seen.statuses = statuses;
    seen.task = task;
    if (flow === 'task-cancel') {
      const requestId = seen.pending.id;
      seen.pendingAfter = await awaitApprovals(
        (pending) => pending.some((request) => request.id === requestId) ? undefined : pending);
    }
    break;
  }
  default:
    throw new Error('unknown flow ' + flow);
}
seen.requests = requests;
console.log(JSON.stringify(seen));
await client.close();

function archiving(request) {
  return request.tool === 'archive_directory' && request.arguments?.directory === path;
}

// The outcome of a call: its result, or what it was rejected with
async function settle(promise) {
  try {
    const result = await promise;
    return { settled: 'fulfilled', isError: result.isError ?? false, text: result.content?.[0]?.text ?? null };
  }
  catch (error) {
    return { settled: 'rejected', name: error.name, code: error.code ?? null, message: error.message,
      resultType: error.data?.resultType ?? null };
  }
}

// Polls the approval API until the predicate answers something
async function awaitApprovals(predicate) {
  const authorization = 'Basic ' + Buffer.from(credentials).toString('base64');
  for (const deadline = Date.now() + 20000; Date.now() < deadline;) {
    const response = await fetch(approvalsUrl, { headers: { authorization, accept: 'application/json' } });
    const found = predicate(await response.json());
    if (found !== undefined) {
      return found;
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error('the approval API did not show what was awaited');
}

function bodyMethod(init) {
  try {
    return (typeof init?.body === 'string') ? JSON.parse(init.body).method : undefined;
  }
  catch {
    return undefined;
  }
}
