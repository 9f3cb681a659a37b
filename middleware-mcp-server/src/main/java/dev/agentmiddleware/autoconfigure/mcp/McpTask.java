package dev.agentmiddleware.autoconfigure.mcp;

import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import org.jspecify.annotations.Nullable;

/**
 * One task of the MCP tasks extension ({@code io.modelcontextprotocol/tasks}), as its
 * {@link McpTaskStore} keeps it: a {@code tools/call} that runs in the background, its
 * state, and the questions it waits on. Immutable: each change is a new value, written by
 * {@link McpTaskStore#update}.
 *
 * @param id the task's id, which the client names in {@code tasks/get},
 * {@code tasks/update} and {@code tasks/cancel}
 * @param owner the name of the principal that created the task, {@code null} when
 * anonymous; only the same principal (or anonymous caller) finds it again
 * @param status where the task is
 * @param createdAt when it was created, epoch milliseconds
 * @param lastUpdatedAt when it last changed, epoch milliseconds
 * @param ttlMs how long it is kept after its last change, milliseconds
 * @param pollIntervalMs how often a client should poll it, milliseconds
 * @param result the {@code CallToolResult} of a completed task, else {@code null}
 * @param error the JSON-RPC error of a failed task, else {@code null}
 * @param inputRequests the questions the task waits on, by the key the server minted:
 * each {@code {method, params}}
 * @param inputResponses the answers {@code tasks/update} delivered that the task has not
 * taken yet, by key
 */
record McpTask(String id, @Nullable String owner, Status status, long createdAt, long lastUpdatedAt, long ttlMs,
		long pollIntervalMs, @Nullable Map<String, Object> result, @Nullable Map<String, Object> error,
		Map<String, Map<String, Object>> inputRequests, Map<String, Object> inputResponses) {

	McpTask {
		inputRequests = Map.copyOf(inputRequests);
		inputResponses = Map.copyOf(inputResponses);
	}

	/**
	 * A task that starts working now.
	 * @param id its id
	 * @param owner its owner's name, or {@code null}
	 * @param now the time, epoch milliseconds
	 * @param ttlMs how long it is kept after its last change
	 * @param pollIntervalMs how often a client should poll it
	 * @return the task
	 */
	static McpTask working(String id, @Nullable String owner, long now, long ttlMs, long pollIntervalMs) {
		return new McpTask(id, owner, Status.WORKING, now, now, ttlMs, pollIntervalMs, null, null, Map.of(), Map.of());
	}

	/**
	 * When the task expires: {@code ttlMs} after its last change.
	 * @return epoch milliseconds
	 */
	long expiresAt() {
		return this.lastUpdatedAt + this.ttlMs;
	}

	boolean isTerminal() {
		return this.status.terminal;
	}

	/** The task ended with a result, unless it ended already. */
	McpTask completed(Map<String, Object> result, long now) {
		return isTerminal() ? this : new McpTask(this.id, this.owner, Status.COMPLETED, this.createdAt, now, this.ttlMs,
				this.pollIntervalMs, result, null, Map.of(), Map.of());
	}

	/** The task failed with a JSON-RPC error, unless it ended already. */
	McpTask failed(Map<String, Object> error, long now) {
		return isTerminal() ? this : new McpTask(this.id, this.owner, Status.FAILED, this.createdAt, now, this.ttlMs,
				this.pollIntervalMs, null, error, Map.of(), Map.of());
	}

	/** The task is cancelled, unless it ended already. */
	McpTask cancelled(long now) {
		return isTerminal() ? this : new McpTask(this.id, this.owner, Status.CANCELLED, this.createdAt, now, this.ttlMs,
				this.pollIntervalMs, null, null, Map.of(), Map.of());
	}

	/** The task waits on one more question. */
	McpTask asking(String key, Map<String, Object> request, long now) {
		if (isTerminal()) {
			return this;
		}
		Map<String, Map<String, Object>> requests = new LinkedHashMap<>(this.inputRequests);
		requests.put(key, request);
		return new McpTask(this.id, this.owner, Status.INPUT_REQUIRED, this.createdAt, now, this.ttlMs,
				this.pollIntervalMs, null, null, requests, this.inputResponses);
	}

	/**
	 * The answers of a {@code tasks/update}: each one that answers a pending question
	 * takes it off the questions (others are ignored); the task works again when none is
	 * left.
	 */
	McpTask answered(Map<?, ?> responses, long now) {
		if (isTerminal()) {
			return this;
		}
		Map<String, Map<String, Object>> requests = new LinkedHashMap<>(this.inputRequests);
		Map<String, Object> answers = new LinkedHashMap<>(this.inputResponses);
		for (Map.Entry<?, ?> response : responses.entrySet()) {
			if (response.getKey() instanceof String key && response.getValue() != null
					&& requests.remove(key) != null) {
				answers.put(key, response.getValue());
			}
		}
		if (answers.size() == this.inputResponses.size()) {
			return this;
		}
		return new McpTask(this.id, this.owner, requests.isEmpty() ? Status.WORKING : Status.INPUT_REQUIRED,
				this.createdAt, now, this.ttlMs, this.pollIntervalMs, null, null, requests, answers);
	}

	/** The answer of a question taken by the task that asked it. */
	McpTask taken(String key) {
		Map<String, Object> answers = new LinkedHashMap<>(this.inputResponses);
		answers.remove(key);
		return new McpTask(this.id, this.owner, this.status, this.createdAt, this.lastUpdatedAt, this.ttlMs,
				this.pollIntervalMs, this.result, this.error, this.inputRequests, answers);
	}

	/**
	 * The task as JSON values, for a store that writes it as a document.
	 * @return the task's fields
	 */
	Map<String, Object> toMap() {
		Map<String, Object> map = new LinkedHashMap<>();
		map.put("id", this.id);
		if (this.owner != null) {
			map.put("owner", this.owner);
		}
		map.put("status", this.status.wire);
		map.put("createdAt", this.createdAt);
		map.put("lastUpdatedAt", this.lastUpdatedAt);
		map.put("ttlMs", this.ttlMs);
		map.put("pollIntervalMs", this.pollIntervalMs);
		if (this.result != null) {
			map.put("result", this.result);
		}
		if (this.error != null) {
			map.put("error", this.error);
		}
		map.put("inputRequests", this.inputRequests);
		map.put("inputResponses", this.inputResponses);
		return map;
	}

	/**
	 * The task a store wrote with {@link #toMap()}.
	 * @param map the task's fields
	 * @return the task
	 */
	@SuppressWarnings("unchecked")
	static McpTask fromMap(Map<String, Object> map) {
		return new McpTask((String) map.get("id"), (String) map.get("owner"), Status.of((String) map.get("status")),
				((Number) map.get("createdAt")).longValue(), ((Number) map.get("lastUpdatedAt")).longValue(),
				((Number) map.get("ttlMs")).longValue(), ((Number) map.get("pollIntervalMs")).longValue(),
				(Map<String, Object>) map.get("result"), (Map<String, Object>) map.get("error"),
				(Map<String, Map<String, Object>>) map.getOrDefault("inputRequests", Map.of()),
				(Map<String, Object>) map.getOrDefault("inputResponses", Map.of()));
	}

	/**
	 * The task as the client sees it: {@code tasks/get}'s DetailedTask, without its
	 * {@code resultType}.
	 * @return the wire fields
	 */
	Map<String, Object> detailed() {
		Map<String, Object> detailed = envelope();
		if (this.result != null) {
			detailed.put("result", this.result);
		}
		if (this.error != null) {
			detailed.put("error", this.error);
		}
		if (this.status == Status.INPUT_REQUIRED) {
			detailed.put("inputRequests", this.inputRequests);
		}
		return detailed;
	}

	/**
	 * The fields every task shows: id, status, times, TTL and poll interval (integer
	 * milliseconds).
	 * @return the wire fields
	 */
	Map<String, Object> envelope() {
		Map<String, Object> envelope = new LinkedHashMap<>();
		envelope.put("taskId", this.id);
		envelope.put("status", this.status.wire);
		envelope.put("createdAt", Instant.ofEpochMilli(this.createdAt).toString());
		envelope.put("lastUpdatedAt", Instant.ofEpochMilli(this.lastUpdatedAt).toString());
		envelope.put("ttlMs", this.ttlMs);
		envelope.put("pollIntervalMs", this.pollIntervalMs);
		return envelope;
	}

	/**
	 * Where a task is, named as the extension names it.
	 */
	enum Status {

		WORKING("working", false), INPUT_REQUIRED("input_required", false), COMPLETED("completed", true),
		FAILED("failed", true), CANCELLED("cancelled", true);

		private static final List<Status> ALL = List.of(values());

		final String wire;

		final boolean terminal;

		Status(String wire, boolean terminal) {
			this.wire = wire;
			this.terminal = terminal;
		}

		static Status of(String wire) {
			return ALL.stream()
				.filter((status) -> status.wire.equals(wire))
				.findFirst()
				.orElseThrow(() -> new IllegalArgumentException(
						"Unknown task status '" + wire.toLowerCase(Locale.ROOT) + "'"));
		}

	}

}
