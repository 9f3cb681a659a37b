package dev.agentmiddleware.autoconfigure.mcp;

import java.io.IOException;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import dev.agentmiddleware.chain.CallCancellation;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.spec.McpSchema;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.web.servlet.function.ServerResponse;

/**
 * The {@code subscriptions/listen} streams of MCP {@code 2026-07-28}: each is a
 * long-lived SSE response that opens with
 * {@code notifications/subscriptions/acknowledged} (the part of the client's filter the
 * server honours) and then carries the notifications of its filter, and no other:
 * {@code notifications/tools/list_changed}, {@code prompts/list_changed},
 * {@code resources/list_changed}, and {@code notifications/resources/updated} of the URIs
 * it names. Every notification on a stream carries the stream's subscription id (the
 * JSON-RPC id of its {@code subscriptions/listen}) in {@code _meta}
 * ({@code io.modelcontextprotocol/subscriptionId}).
 *
 * <p>
 * The notifications come from where the server learns of changes for the sessions of
 * {@code 2025-11-25}: the list changes Spring AI's MCP server sends every client (a tool,
 * prompt or resource added or removed at runtime), and {@link McpResourceUpdates}. A
 * filter is honoured only for what the MCP server notifies: list changes of a kind only
 * when it advertises {@code listChanged} for it, resource updates only when it advertises
 * {@code subscribe}. A stream ends when its client closes it (found by a write or a
 * keep-alive comment), or when the server stops, which answers it with its
 * {@code SubscriptionsListenResult}. Subscriptions live in the instance that holds their
 * stream: a change is delivered to the streams of the instance where it happened.
 * Thread-safe.
 */
final class StatelessMcpSubscriptions {

	static final String METHOD_LISTEN = "subscriptions/listen";

	static final String METHOD_ACKNOWLEDGED = "notifications/subscriptions/acknowledged";

	private static final String META_SUBSCRIPTION_ID = "io.modelcontextprotocol/subscriptionId";

	private static final String TOOLS = "toolsListChanged";

	private static final String PROMPTS = "promptsListChanged";

	private static final String RESOURCES = "resourcesListChanged";

	private static final String RESOURCE_SUBSCRIPTIONS = "resourceSubscriptions";

	// The transport's log category, which operators configure for all of it
	private static final Logger logger = LoggerFactory.getLogger(HardenedStreamableHttpTransport.class);

	private final McpJsonMapper jsonMapper;

	private final Set<Subscription> subscriptions = ConcurrentHashMap.newKeySet();

	StatelessMcpSubscriptions(McpJsonMapper jsonMapper) {
		this.jsonMapper = jsonMapper;
	}

	/**
	 * The capabilities to advertise: those of what is served, with {@code listChanged}
	 * and {@code subscribe} as far as the MCP server notifies them.
	 * @param served the capabilities of what is served
	 * @param notified the capabilities Spring AI's MCP server advertises to sessions,
	 * {@code null} when none runs
	 * @return the capabilities
	 */
	static McpSchema.ServerCapabilities capabilities(McpSchema.ServerCapabilities served,
			McpSchema.@Nullable ServerCapabilities notified) {
		McpSchema.ServerCapabilities.Builder capabilities = McpSchema.ServerCapabilities.builder();
		if (served.tools() != null) {
			capabilities.tools(notified != null && notified.tools() != null
					&& Boolean.TRUE.equals(notified.tools().listChanged()));
		}
		if (served.resources() != null) {
			McpSchema.ServerCapabilities.ResourceCapabilities resources = (notified != null) ? notified.resources()
					: null;
			capabilities.resources(resources != null && Boolean.TRUE.equals(resources.subscribe()),
					resources != null && Boolean.TRUE.equals(resources.listChanged()));
		}
		if (served.prompts() != null) {
			capabilities.prompts(notified != null && notified.prompts() != null
					&& Boolean.TRUE.equals(notified.prompts().listChanged()));
		}
		if (served.completions() != null) {
			capabilities.completions();
		}
		if (served.logging() != null) {
			capabilities.logging();
		}
		capabilities.experimental(served.experimental());
		return capabilities.build();
	}

	/**
	 * Opens a subscription: its stream, acknowledged at once.
	 * @param id the JSON-RPC id of the {@code subscriptions/listen}, the subscription's
	 * id
	 * @param params its params
	 * @param capabilities the capabilities advertised, which bound what is honoured
	 * @return the stream
	 * @throws IllegalArgumentException if the params have no {@code notifications}
	 * filter, or a malformed one
	 */
	ServerResponse listen(Object id, Map<?, ?> params, McpSchema.ServerCapabilities capabilities) {
		Filter filter = Filter.honoured(params.get("notifications"), capabilities);
		return ServerResponse.sse((sse) -> {
			StatelessMcpStream stream = new StatelessMcpStream(sse, new CallCancellation());
			Subscription subscription = new Subscription(id, filter, stream);
			Map<String, Object> acknowledged = new LinkedHashMap<>();
			acknowledged.put("notifications", filter.toMap());
			// Registered before its acknowledgement, so that no change after it is
			// missed,
			// and under its lock, which every notification takes, so that the
			// acknowledgement is its first message
			synchronized (subscription) {
				this.subscriptions.add(subscription);
				logger.debug("MCP {} subscription opened (subscriptions: {})", StatelessMcpServer.PROTOCOL_VERSION,
						this.subscriptions.size());
				send(subscription, METHOD_ACKNOWLEDGED, acknowledged);
			}
		}, Duration.ZERO);
	}

	/**
	 * Passes on a notification the MCP server sends every client, to the subscriptions
	 * whose filter asks for it; other notifications are not for subscriptions.
	 * @param method the notification's method
	 * @param params its params, {@code null} for none
	 */
	void notifyClients(String method, @Nullable Object params) {
		String kind = switch (method) {
			case McpSchema.METHOD_NOTIFICATION_TOOLS_LIST_CHANGED -> TOOLS;
			case McpSchema.METHOD_NOTIFICATION_PROMPTS_LIST_CHANGED -> PROMPTS;
			case McpSchema.METHOD_NOTIFICATION_RESOURCES_LIST_CHANGED -> RESOURCES;
			default -> null;
		};
		if (kind == null) {
			return;
		}
		for (Subscription subscription : this.subscriptions) {
			if (subscription.filter().listChanges().contains(kind)) {
				send(subscription, method, new LinkedHashMap<>());
			}
		}
	}

	/**
	 * Sends {@code notifications/resources/updated} of a resource to the subscriptions
	 * that name its URI.
	 * @param uri the resource's URI
	 */
	void resourceUpdated(String uri) {
		for (Subscription subscription : this.subscriptions) {
			if (subscription.filter().resources().contains(uri)) {
				Map<String, Object> params = new LinkedHashMap<>();
				params.put("uri", uri);
				send(subscription, McpSchema.METHOD_NOTIFICATION_RESOURCES_UPDATED, params);
			}
		}
	}

	/**
	 * Writes a keep-alive comment on every stream, so that one its client closed ends.
	 */
	void ping() {
		for (Subscription subscription : this.subscriptions) {
			subscription.stream().ping();
			removeIfClosed(subscription);
		}
	}

	/**
	 * Ends every subscription, answering each with its result, as the server stops.
	 */
	void endAll() {
		for (Subscription subscription : this.subscriptions) {
			Map<String, Object> result = new LinkedHashMap<>();
			result.put("resultType", "complete");
			result.put("_meta", Map.of(META_SUBSCRIPTION_ID, subscription.id()));
			subscription.stream().send(json(McpSchema.JSONRPCResponse.result(subscription.id(), result)));
			subscription.stream().close();
			this.subscriptions.remove(subscription);
		}
	}

	private void send(Subscription subscription, String method, Map<String, Object> params) {
		params.put("_meta", Map.of(META_SUBSCRIPTION_ID, subscription.id()));
		synchronized (subscription) {
			subscription.stream()
				.send(json(new McpSchema.JSONRPCNotification(McpSchema.JSONRPC_VERSION, method, params)));
		}
		removeIfClosed(subscription);
	}

	private void removeIfClosed(Subscription subscription) {
		if (subscription.stream().isClosed() && this.subscriptions.remove(subscription)) {
			logger.debug("MCP {} subscription ended: its client closed the stream (subscriptions left: {})",
					StatelessMcpServer.PROTOCOL_VERSION, this.subscriptions.size());
		}
	}

	private String json(Object message) {
		try {
			return this.jsonMapper.writeValueAsString(message);
		}
		catch (IOException ex) {
			throw new IllegalStateException("An MCP notification could not be written", ex);
		}
	}

	private record Subscription(Object id, Filter filter, StatelessMcpStream stream) {

		// By identity: two subscriptions may share an id
		@Override
		public boolean equals(Object other) {
			return this == other;
		}

		@Override
		public int hashCode() {
			return System.identityHashCode(this);
		}

	}

	// The part of a client's filter the server honours
	private record Filter(Set<String> listChanges, Set<String> resources) {

		static Filter honoured(@Nullable Object requested, McpSchema.ServerCapabilities capabilities) {
			if (!(requested instanceof Map<?, ?> filter)) {
				throw new IllegalArgumentException("notifications must be an object");
			}
			Set<String> listChanges = new LinkedHashSet<>();
			if (requests(filter, TOOLS) && capabilities.tools() != null
					&& Boolean.TRUE.equals(capabilities.tools().listChanged())) {
				listChanges.add(TOOLS);
			}
			if (requests(filter, PROMPTS) && capabilities.prompts() != null
					&& Boolean.TRUE.equals(capabilities.prompts().listChanged())) {
				listChanges.add(PROMPTS);
			}
			McpSchema.ServerCapabilities.ResourceCapabilities resourceCapabilities = capabilities.resources();
			if (requests(filter, RESOURCES) && resourceCapabilities != null
					&& Boolean.TRUE.equals(resourceCapabilities.listChanged())) {
				listChanges.add(RESOURCES);
			}
			Set<String> resources = new LinkedHashSet<>();
			Object uris = filter.get(RESOURCE_SUBSCRIPTIONS);
			if (uris != null) {
				if (!(uris instanceof List<?> list) || !list.stream().allMatch(String.class::isInstance)) {
					throw new IllegalArgumentException(RESOURCE_SUBSCRIPTIONS + " must be an array of URIs");
				}
				if (resourceCapabilities != null && Boolean.TRUE.equals(resourceCapabilities.subscribe())) {
					list.forEach((uri) -> resources.add((String) uri));
				}
			}
			return new Filter(Set.copyOf(listChanges), Set.copyOf(resources));
		}

		private static boolean requests(Map<?, ?> filter, String kind) {
			Object value = filter.get(kind);
			if (value != null && !(value instanceof Boolean)) {
				throw new IllegalArgumentException(kind + " must be a boolean");
			}
			return Boolean.TRUE.equals(value);
		}

		Map<String, Object> toMap() {
			Map<String, Object> map = new LinkedHashMap<>();
			for (String kind : List.of(TOOLS, PROMPTS, RESOURCES)) {
				if (this.listChanges.contains(kind)) {
					map.put(kind, true);
				}
			}
			if (!this.resources.isEmpty()) {
				map.put(RESOURCE_SUBSCRIPTIONS, this.resources.stream().sorted().toList());
			}
			return map;
		}

	}

}
