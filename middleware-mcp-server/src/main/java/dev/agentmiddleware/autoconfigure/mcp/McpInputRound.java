package dev.agentmiddleware.autoconfigure.mcp;

import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.agentmiddleware.tool.CallResumption;
import io.modelcontextprotocol.spec.McpSchema;
import org.jspecify.annotations.Nullable;

/**
 * One run of a {@code 2026-07-28} request that may answer {@code input_required}
 * ({@code tools/call}, {@code prompts/get}, {@code resources/read}): the answers the
 * client gave (those of earlier rounds, from the sealed {@code requestState}, and this
 * round's {@code inputResponses}), the requests of the handler that found none (each
 * under its key, for {@code inputRequests}), and the answers used, for the next state.
 * The handler runs from the start on every round: its n-th request of a kind has the key
 * {@code <kind>-<n>} ({@code elicitation-1}, {@code sampling-1}, {@code roots-1}) unless
 * the request names one ({@link #META_KEY} in its {@code _meta}, which
 * {@link McpToolClient} sets from the tool's request id). Thread-safe: a handler may ask
 * several requests at once, each from its own thread. The round also holds the call's
 * {@link CallResumption}: the values the previous round carried (from the state) and
 * those this round carries to the retry (sealed into the next state).
 */
final class McpInputRound {

	/**
	 * The {@code _meta} entry of a request to the client that names its key; removed
	 * before the request is sent.
	 */
	static final String META_KEY = "dev.agentmiddleware/inputKey";

	/**
	 * Takes the key a request to the client names in its {@code _meta}
	 * ({@link #META_KEY}) out of its params, so that the marker never reaches the client:
	 * the {@code _meta} keeps its other entries, and goes when none is left.
	 * @param params the request's params, changed in place
	 * @return the key, or {@code null} when the request names none
	 */
	static @Nullable String takeKey(Map<String, Object> params) {
		if (!(params.get("_meta") instanceof Map<?, ?> meta) || !(meta.get(META_KEY) instanceof String key)) {
			return null;
		}
		Map<String, Object> rest = new LinkedHashMap<>();
		meta.forEach((name, value) -> {
			if (!META_KEY.equals(name)) {
				rest.put(String.valueOf(name), value);
			}
		});
		if (rest.isEmpty()) {
			params.remove("_meta");
		}
		else {
			params.put("_meta", rest);
		}
		return key;
	}

	private final String name;

	private final McpSchema.ClientCapabilities capabilities;

	private final Map<String, Object> answers;

	private final Map<String, Object> used = new LinkedHashMap<>();

	private final Map<String, Map<String, Object>> asked = new LinkedHashMap<>();

	private final Map<String, Integer> counts = new HashMap<>();

	private final CallResumption resumption;

	private @Nullable String invalid;

	/**
	 * Creates a round.
	 * @param name the tool, prompt or resource the request names
	 * @param capabilities what the client declared in the request's {@code _meta}
	 * @param answers the answers the client gave, by key
	 */
	McpInputRound(String name, McpSchema.ClientCapabilities capabilities, Map<String, Object> answers) {
		this(name, capabilities, answers, new CallResumption(Map.of(), CallResumption.DEFAULT_ROUND_TIME));
	}

	/**
	 * Creates a round of a call that carries values from one round to the next.
	 * @param name the tool, prompt or resource the request names
	 * @param capabilities what the client declared in the request's {@code _meta}
	 * @param answers the answers the client gave, by key
	 * @param resumption the values carried from the previous round, and the round's time
	 */
	McpInputRound(String name, McpSchema.ClientCapabilities capabilities, Map<String, Object> answers,
			CallResumption resumption) {
		this.name = name;
		this.capabilities = capabilities;
		this.answers = Map.copyOf(answers);
		this.resumption = resumption;
	}

	String name() {
		return this.name;
	}

	CallResumption resumption() {
		return this.resumption;
	}

	McpSchema.ClientCapabilities capabilities() {
		return this.capabilities;
	}

	/**
	 * The key of the next request of a kind, unless it names its own.
	 * @param kind the kind of request
	 * @return the key
	 */
	synchronized String nextKey(String kind) {
		int n = this.counts.merge(kind, 1, Integer::sum);
		return kind + "-" + n;
	}

	/**
	 * The client's answer to a request, noted as used.
	 * @param key the request's key
	 * @return the answer, or {@code null} when the client gave none
	 */
	synchronized @Nullable Object answer(String key) {
		Object answer = this.answers.get(key);
		if (answer != null) {
			this.used.put(key, answer);
		}
		return answer;
	}

	/**
	 * Notes a request the client has to answer.
	 * @param key its key
	 * @param method its method
	 * @param params its params
	 */
	synchronized void ask(String key, String method, Map<String, Object> params) {
		Map<String, Object> request = new LinkedHashMap<>();
		request.put("method", method);
		request.put("params", params);
		this.asked.put(key, request);
	}

	/**
	 * Notes that an answer of the client does not fit its request: the request is
	 * answered {@code -32602}.
	 * @param message what is wrong, for the client
	 */
	synchronized void invalid(String message) {
		if (this.invalid == null) {
			this.invalid = message;
		}
	}

	synchronized @Nullable String invalid() {
		return this.invalid;
	}

	synchronized boolean asked() {
		return !this.asked.isEmpty();
	}

	synchronized Map<String, Map<String, Object>> inputRequests() {
		return new LinkedHashMap<>(this.asked);
	}

	/**
	 * Whether the handler took every answer the client gave, and there was at least one.
	 * @return {@code true} once the last answer was taken
	 */
	synchronized boolean tookEveryAnswer() {
		return !this.answers.isEmpty() && this.used.keySet().containsAll(this.answers.keySet());
	}

	synchronized Map<String, Object> usedAnswers() {
		return new LinkedHashMap<>(this.used);
	}

	/**
	 * Whether an answer has the shape of the result of its request.
	 * @param method the request's method
	 * @param answer the answer
	 * @return {@code true} if it can be read as that result
	 */
	static boolean fits(String method, Object answer) {
		if (!(answer instanceof Map<?, ?> map)) {
			return false;
		}
		return switch (method) {
			case McpSchema.METHOD_ELICITATION_CREATE ->
				map.get("action") instanceof String action && List.of("accept", "decline", "cancel").contains(action)
						&& (map.get("content") == null || map.get("content") instanceof Map);
			case McpSchema.METHOD_SAMPLING_CREATE_MESSAGE ->
				map.get("role") instanceof String && map.get("content") instanceof Map;
			case McpSchema.METHOD_ROOTS_LIST -> map.get("roots") instanceof List<?> roots && roots.stream()
				.allMatch((root) -> root instanceof Map<?, ?> entry && entry.get("uri") instanceof String);
			default -> true;
		};
	}

}
