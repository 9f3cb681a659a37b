package dev.agentmiddleware.autoconfigure.mcp;

import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import dev.agentmiddleware.autoconfigure.mcp.McpSessionIds.McpRequestBaseUrls;
import dev.agentmiddleware.chain.CallCancellation;
import dev.agentmiddleware.tool.ToolPrincipal;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.server.McpServerFeatures.SyncToolSpecification;
import io.modelcontextprotocol.spec.McpError;
import io.modelcontextprotocol.spec.McpSchema;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.http.HttpStatus;
import org.springframework.web.servlet.function.ServerRequest;
import org.springframework.web.servlet.function.ServerResponse;

/**
 * Answers the {@code tools/call} requests of MCP revision {@code 2026-07-28} for the
 * {@link StatelessMcpServer}: a call runs on an SSE stream ({@link StatelessMcpStream}),
 * its progress notifications and then its result, and is cancelled when its client closes
 * the stream; a task tool's call starts its task ({@link StatelessMcpTasks}), after its
 * {@code input_required} rounds when it gathers its input first
 * ({@link StatelessMcpTaskEscalation}). Keeps the streams of the calls running for the
 * keep-alive.
 */
final class StatelessMcpToolCalls {

	// The transport's log category, which operators configure for all of it
	private static final Logger logger = LoggerFactory.getLogger(HardenedStreamableHttpTransport.class);

	private final McpJsonMapper jsonMapper;

	private final StatelessMcpTasks tasks;

	private final StatelessMcpInputs inputs;

	private final StatelessMcpTaskEscalation escalation;

	private final StatelessMcpResponses responses;

	// The streams of the calls running, for the keep-alive that finds a client gone
	private final Set<StatelessMcpStream> streams = ConcurrentHashMap.newKeySet();

	StatelessMcpToolCalls(McpJsonMapper jsonMapper, StatelessMcpTasks tasks, StatelessMcpInputs inputs,
			StatelessMcpResponses responses) {
		this.jsonMapper = jsonMapper;
		this.tasks = tasks;
		this.inputs = inputs;
		this.responses = responses;
		this.escalation = new StatelessMcpTaskEscalation(jsonMapper, tasks, inputs, this.streams);
	}

	/**
	 * Writes a keep-alive comment on the stream of every call running, so that a call
	 * whose client closed its stream is cancelled.
	 */
	void ping() {
		for (StatelessMcpStream stream : this.streams) {
			stream.ping();
		}
	}

	// tools/call: on an SSE stream, its progress and then its result; the call is
	// cancelled when its client closes the stream
	ServerResponse call(StatelessMcpCatalog catalog, McpSchema.JSONRPCRequest rpc, Map<?, ?> params,
			StatelessMcpRequestMeta meta, ServerRequest request, @Nullable ToolPrincipal principal,
			@Nullable McpInputRound round) {
		McpSchema.CallToolRequest callRequest = this.jsonMapper.convertValue(params, McpSchema.CallToolRequest.class);
		SyncToolSpecification tool = (callRequest.name() != null) ? catalog.tool(callRequest.name()) : null;
		if (tool == null || !(params.get("arguments") == null || params.get("arguments") instanceof Map)) {
			return this.responses.error(HttpStatus.OK, rpc.id(), HardenedStreamableHttpTransport.INVALID_PARAMS,
					(tool == null) ? "Invalid params: unknown tool" : "Invalid params: the arguments must be an object",
					null);
		}
		String headerMismatch = McpParamHeaders.mismatch(tool.tool(), callRequest.arguments(), request);
		if (headerMismatch != null) {
			return this.responses.error(HttpStatus.BAD_REQUEST, rpc.id(), StatelessMcpServer.HEADER_MISMATCH,
					headerMismatch, null);
		}
		if (this.tasks.runsAsTask(tool, params)) {
			if (round != null && StatelessMcpTaskEscalation.gathersInputFirst(tool)) {
				// Its input by input_required rounds first, then the task
				return this.escalation.call(tool, rpc, callRequest, round, meta, request, principal);
			}
			return this.responses.json(HttpStatus.OK, McpSchema.JSONRPCResponse.result(rpc.id(), this.tasks.start(tool,
					callRequest, params, principal, McpRequestBaseUrls.of(request.servletRequest()))));
		}
		return StatelessMcpStream.sse((sse, response) -> {
			CallCancellation cancellation = new CallCancellation();
			StatelessMcpStream stream = new StatelessMcpStream(sse, cancellation);
			this.streams.add(stream);
			try {
				McpSchema.CallToolResult result;
				try {
					result = tool.callHandler()
						.apply(meta.exchange(this.jsonMapper, request, principal, stream, cancellation, round),
								callRequest);
					StatelessMcpInputs.checkAnswers(round);
				}
				catch (RuntimeException ex) {
					Map<String, Object> inputRequired = this.inputs.ended(round, rpc.method(), params,
							(principal != null) ? principal.name() : null, ex);
					if (inputRequired == null) {
						throw ex;
					}
					stream.send(this.responses.json(McpSchema.JSONRPCResponse.result(rpc.id(), inputRequired)));
					return;
				}
				if (!cancellation.isCancelled()) {
					stream.send(this.responses
						.json(McpSchema.JSONRPCResponse.result(rpc.id(), this.responses.shaped(rpc.method(), result))));
				}
			}
			catch (McpError ex) {
				String error = this.responses.json(McpSchema.JSONRPCResponse.error(rpc.id(), ex.getJsonRpcError()));
				// A missing capability is 400, when the stream has not started yet
				if (ex.getJsonRpcError().code() != StatelessMcpSession.MISSING_REQUIRED_CLIENT_CAPABILITY
						|| !stream.refuse(response, HttpStatus.BAD_REQUEST.value(), error)) {
					stream.send(error);
				}
			}
			catch (RuntimeException ex) {
				if (!stream.isClosed()) {
					logger.warn("MCP {} tools/call failed in the transport: {}", StatelessMcpServer.PROTOCOL_VERSION,
							ex.getClass().getSimpleName());
					stream.send(this.responses.json(McpSchema.JSONRPCResponse.error(rpc.id(),
							new McpSchema.JSONRPCResponse.JSONRPCError(McpSchema.ErrorCodes.INTERNAL_ERROR,
									"Internal error: the call could not be answered"))));
				}
			}
			finally {
				this.streams.remove(stream);
				stream.close();
				if (stream.isAbandoned()) {
					// As on a session's stream: the container would leave the request
					// of a client gone open
					McpSessionDispatcher.completeAbandoned(request.servletRequest());
				}
			}
		});
	}

}
