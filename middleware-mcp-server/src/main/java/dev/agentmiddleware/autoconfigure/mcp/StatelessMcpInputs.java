package dev.agentmiddleware.autoconfigure.mcp;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

import dev.agentmiddleware.tool.CallResumption;
import dev.agentmiddleware.tool.ToolInputRequiredException;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.spec.McpError;
import io.modelcontextprotocol.spec.McpSchema;
import org.jspecify.annotations.Nullable;

/**
 * The multi round-trip requests of MCP {@code 2026-07-28} (SEP-2322) on the requests that
 * may have them ({@code tools/call}, {@code prompts/get}, {@code resources/read}; no
 * other request ever answers {@code input_required}): the replay model. A handler cannot
 * wait for its client, so its request to the client (through the SDK exchange,
 * {@link StatelessMcpSession}) is answered from the answers of this round when they hold
 * it, and otherwise unwinds the handler; the request then answers <pre>{@code
 * {"resultType": "input_required", "inputRequests": {key: {"method": ..., "params": ...}}, "requestState": "..."}
 * }</pre> and the client retries the same request with {@code inputResponses} (and the
 * echoed {@code requestState}): the handler runs again from the start and its requests
 * now find their answers. The answers of earlier rounds travel in the sealed
 * {@code requestState} ({@link McpRequestStates}), so a retry may land on any instance
 * that shares the key. A missing or unknown key in {@code inputResponses} asks again
 * ({@code input_required}, not an error); extra keys are ignored; an
 * {@code inputResponses} that is not an object of objects, a {@code requestState} that is
 * not a string or is refused, and an answer that does not fit its request answer
 * {@code -32602}.
 *
 * <p>
 * A call that waits for something outside it (an approval decided in the console) ends
 * its round after the round time with {@code input_required} that carries only the
 * {@code requestState} (no {@code inputRequests}): the client retries at once (the
 * TypeScript SDK 2.x after a 250 ms pause, within its cap of rounds), and the state
 * carries the call's {@link CallResumption} values, such as the id of its pending
 * approval request, to whichever instance serves the retry.
 */
final class StatelessMcpInputs {

	private static final Set<String> METHODS = Set.of(McpSchema.METHOD_TOOLS_CALL, McpSchema.METHOD_PROMPT_GET,
			McpSchema.METHOD_RESOURCES_READ);

	private final McpRequestStates states;

	private final McpJsonMapper jsonMapper;

	private final Duration roundTime;

	StatelessMcpInputs(McpJsonMapper jsonMapper, McpRequestStates states) {
		this(jsonMapper, states, CallResumption.DEFAULT_ROUND_TIME);
	}

	StatelessMcpInputs(McpJsonMapper jsonMapper, McpRequestStates states, Duration roundTime) {
		this.jsonMapper = jsonMapper;
		this.states = states;
		this.roundTime = roundTime;
	}

	/**
	 * Opens the round of a request: the answers of earlier rounds (its
	 * {@code requestState}) and of this one ({@code inputResponses}).
	 * @param method the request's method
	 * @param params its params
	 * @param principal the principal's name, or {@code null}
	 * @param capabilities what the client declared
	 * @return the round, or {@code null} for a method that never answers
	 * {@code input_required}
	 * @throws McpError with {@code -32602} for malformed inputs or a refused state
	 */
	@Nullable McpInputRound open(String method, Map<?, ?> params, @Nullable String principal,
			McpSchema.ClientCapabilities capabilities) {
		if (!METHODS.contains(method)) {
			return null;
		}
		Map<String, Object> answers = new LinkedHashMap<>();
		Map<String, String> carried = Map.of();
		if (params.containsKey("requestState")) {
			if (!(params.get("requestState") instanceof String state)) {
				throw invalid("Invalid params: requestState must be a string");
			}
			McpRequestStates.Opened opened = this.states.openCarrying(state, binding(method, params, principal));
			answers.putAll(opened.answers());
			carried = opened.carried();
		}
		if (params.containsKey("inputResponses")) {
			if (!(params.get("inputResponses") instanceof Map<?, ?> responses)) {
				throw invalid("Invalid params: inputResponses must be an object of input responses by key");
			}
			for (Map.Entry<?, ?> response : responses.entrySet()) {
				if (!(response.getValue() instanceof Map)) {
					throw invalid("Invalid params: the input response "
							+ McpLogText.of(String.valueOf(response.getKey())) + " must be an object");
				}
				// An answer of an earlier round stays as it was sealed
				answers.putIfAbsent(String.valueOf(response.getKey()), response.getValue());
			}
		}
		Object name = McpSchema.METHOD_RESOURCES_READ.equals(method) ? params.get("uri") : params.get("name");
		return new McpInputRound(String.valueOf(name), capabilities, answers,
				new CallResumption(carried, this.roundTime));
	}

	/**
	 * The answer of a round whose handler asked its client: its requests and the state of
	 * the answers it used.
	 * @param round the round
	 * @param method the request's method
	 * @param params its params
	 * @param principal the principal's name, or {@code null}
	 * @return the {@code input_required} result
	 */
	Map<String, Object> inputRequired(McpInputRound round, String method, Map<?, ?> params,
			@Nullable String principal) {
		Map<String, Object> result = new LinkedHashMap<>();
		result.put("resultType", "input_required");
		Map<String, Map<String, Object>> inputRequests = round.inputRequests();
		if (!inputRequests.isEmpty()) {
			result.put("inputRequests", inputRequests);
		}
		result.put("requestState", this.states.seal(binding(method, params, principal), round.usedAnswers(),
				round.resumption().toCarry()));
		return result;
	}

	/**
	 * How a round ended when its handler threw: the {@code -32602} of an answer that did
	 * not fit, the {@code input_required} answer of requests to the client, else
	 * {@code null} (the handler's own failure).
	 * @param round the round, or {@code null}
	 * @param method the request's method
	 * @param params its params
	 * @param principal the principal's name, or {@code null}
	 * @return the answer, or {@code null}
	 * @throws McpError for an answer that did not fit its request
	 */
	@Nullable Map<String, Object> ended(@Nullable McpInputRound round, String method, Map<?, ?> params,
			@Nullable String principal) {
		if (round == null) {
			return null;
		}
		checkAnswers(round);
		return round.asked() ? inputRequired(round, method, params, principal) : null;
	}

	/**
	 * How a round ended when its handler threw: as
	 * {@link #ended(McpInputRound, String, Map, String)}, and {@code input_required} with
	 * only the state when the call ended its round to wait for something outside it (a
	 * {@link ToolInputRequiredException} without a request to the client), so that the
	 * client retries.
	 * @param round the round, or {@code null}
	 * @param method the request's method
	 * @param params its params
	 * @param principal the principal's name, or {@code null}
	 * @param failure what the handler threw
	 * @return the answer, or {@code null}
	 * @throws McpError for an answer that did not fit its request
	 */
	@Nullable Map<String, Object> ended(@Nullable McpInputRound round, String method, Map<?, ?> params,
			@Nullable String principal, Throwable failure) {
		Map<String, Object> ended = ended(round, method, params, principal);
		if (ended == null && round != null && failure instanceof ToolInputRequiredException) {
			return inputRequired(round, method, params, principal);
		}
		return ended;
	}

	/**
	 * Fails a round one of whose answers did not fit its request.
	 * @param round the round, or {@code null}
	 * @throws McpError with {@code -32602}
	 */
	static void checkAnswers(@Nullable McpInputRound round) {
		String invalid = (round != null) ? round.invalid() : null;
		if (invalid != null) {
			throw invalid(invalid);
		}
	}

	private McpRequestStates.Binding binding(String method, Map<?, ?> params, @Nullable String principal) {
		return McpRequestStates.Binding.of(this.jsonMapper, method, params, principal);
	}

	private static McpError invalid(String message) {
		return new McpError(new McpSchema.JSONRPCResponse.JSONRPCError(HardenedStreamableHttpTransport.INVALID_PARAMS,
				message, null));
	}

}
