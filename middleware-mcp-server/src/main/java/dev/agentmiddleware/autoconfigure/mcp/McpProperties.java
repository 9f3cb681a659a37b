package dev.agentmiddleware.autoconfigure.mcp;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.agentmiddleware.autoconfigure.ConditionalOnStoreType.StoreSettings;
import dev.agentmiddleware.autoconfigure.tool.PropertyChecks;
import dev.agentmiddleware.autoconfigure.tool.ValidatedProperties;
import dev.agentmiddleware.spring.AgentToolIcon;
import dev.agentmiddleware.tool.ToolProgress.ProgressTarget;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.NestedConfigurationProperty;
import org.springframework.boot.context.properties.DeprecatedConfigurationProperty;
import org.springframework.util.unit.DataSize;

/**
 * Configuration of the MCP server side: which tools are governed, how the Streamable HTTP
 * endpoint protects itself, and how tools are presented to MCP clients. <pre>{@code
 * agent:
 *   middleware:
 *     mcp:
 *       progress-interval: 5s
 *       transport:
 *         max-request-size: 2MB
 *         session-idle-timeout: 10m
 *         max-sessions: 200
 *       security:
 *         resource: https://mcp.example.com/mcp
 *         scopes: [tools.read, tools.call]
 * }</pre> Which hosts and origins the endpoint answers is configured for every path the
 * starter serves, under {@code agent.middleware.edge}
 * ({@link dev.agentmiddleware.autoconfigure.edge.EdgeProperties}).
 */
@ConfigurationProperties(McpProperties.PREFIX)
public class McpProperties implements ValidatedProperties {

	/** The prefix of the MCP properties. */
	public static final String PREFIX = "agent.middleware.mcp";

	/**
	 * Whether Spring AI tool callbacks published on the MCP server (such as a
	 * ToolCallbackProvider of @Tool beans) run through the middleware chain; when off,
	 * startup warns naming each ungoverned tool.
	 */
	private boolean governSpringAiTools = true;

	/**
	 * Least time between two progress notifications of one call, for clients that send a
	 * progressToken: a call waiting for approval says what it waits for once per
	 * interval, and a tool's own reports are sent at most as often.
	 */
	private Duration progressInterval = ProgressTarget.DEFAULT_INTERVAL;

	/**
	 * Hardened Streamable HTTP transport settings.
	 */
	private final Transport transport = new Transport();

	/**
	 * Authentication of MCP callers: the endpoint as an OAuth 2.1 resource server.
	 */
	private final Security security = new Security();

	/**
	 * How each tool is presented to MCP clients, by tool name; replaces what
	 * its @AgentTool declares.
	 */
	private Map<String, Tool> tools = new LinkedHashMap<>();

	/**
	 * Where the sessions of the Streamable HTTP endpoint are kept.
	 */
	private final Sessions sessions = new Sessions();

	/**
	 * The tasks of MCP 2026-07-28's tasks extension (io.modelcontextprotocol/tasks).
	 */
	private final Tasks tasks = new Tasks();

	/**
	 * Resources published on the MCP server.
	 */
	private final Resources resources = new Resources();

	/**
	 * The requestState of MCP 2026-07-28 input_required answers (multi round-trip
	 * requests).
	 */
	private final RequestState requestState = new RequestState();

	/**
	 * Multi round-trip requests of MCP 2026-07-28 (input_required).
	 */
	private final InputRequired inputRequired = new InputRequired();

	@Override
	public void validate(PropertyChecks checks) {
		this.sessions.getStore().getType().requireMemoryOrJdbc(checks.property("sessions.store.type"));
		this.tasks.getStore().getType().requireMemoryOrJdbc(checks.property("tasks.store.type"));
		this.tools.forEach((name, tool) -> McpToolIcons.fromProperties(checks.property("tools") + "." + name + ".icons",
				tool.getIcons()));
		checks.positive("progressInterval", this.progressInterval)
			.positive("transport.maxRequestSize", this.transport.getMaxRequestSize())
			.positive("transport.sessionIdleTimeout", this.transport.getSessionIdleTimeout())
			.atLeast("transport.maxSessions", this.transport.getMaxSessions(), 1)
			.positive("tasks.ttl", this.tasks.getTtl())
			.positive("tasks.pollInterval", this.tasks.getPollInterval())
			.positive("requestState.validity", this.requestState.getValidity())
			.positive("inputRequired.approvalRound", this.inputRequired.getApprovalRound())
			.noBlankElement("transport.allowedOrigins", this.transport.getAllowedOrigins())
			.noBlankElement("transport.allowedHosts", this.transport.getAllowedHosts());
	}

	public Map<String, Tool> getTools() {
		return this.tools;
	}

	public void setTools(Map<String, Tool> tools) {
		this.tools = tools;
	}

	public boolean isGovernSpringAiTools() {
		return this.governSpringAiTools;
	}

	public void setGovernSpringAiTools(boolean governSpringAiTools) {
		this.governSpringAiTools = governSpringAiTools;
	}

	public Duration getProgressInterval() {
		return this.progressInterval;
	}

	public void setProgressInterval(Duration progressInterval) {
		this.progressInterval = progressInterval;
	}

	public Transport getTransport() {
		return this.transport;
	}

	public Security getSecurity() {
		return this.security;
	}

	public Sessions getSessions() {
		return this.sessions;
	}

	public Tasks getTasks() {
		return this.tasks;
	}

	public Resources getResources() {
		return this.resources;
	}

	public RequestState getRequestState() {
		return this.requestState;
	}

	public InputRequired getInputRequired() {
		return this.inputRequired;
	}

	/**
	 * Multi round-trip requests of MCP 2026-07-28: a call answers input_required and its
	 * client retries it.
	 */
	public static class InputRequired {

		/**
		 * How long one round of a tools/call waits for an approval decided outside the
		 * call (console, REST, link) before it answers input_required with only its
		 * requestState, so that the client retries (and the retry waits again, until the
		 * approval timeout counted from the request's creation). Keep it below the
		 * clients' request timeout (60 s in the official SDKs).
		 */
		private Duration approvalRound = Duration.ofSeconds(20);

		public Duration getApprovalRound() {
			return this.approvalRound;
		}

		public void setApprovalRound(Duration approvalRound) {
			this.approvalRound = approvalRound;
		}

	}

	/**
	 * The requestState an MCP 2026-07-28 request answers input_required with: the
	 * client's earlier answers, sealed (HMAC-SHA256) so that any instance can serve the
	 * retry, and bound to the request, its principal and an expiry.
	 */
	public static class RequestState {

		/**
		 * The key that seals the requestState, base64, at least 32 bytes; the same on
		 * every instance. Without one, each start uses a random key (a retry must then
		 * reach the instance that asked, before it restarts), and a JDBC session store
		 * fails startup.
		 */
		private @Nullable String secret;

		/**
		 * How long a requestState stays valid: the client must retry within it.
		 */
		private Duration validity = Duration.ofMinutes(10);

		public @Nullable String getSecret() {
			return this.secret;
		}

		public void setSecret(@Nullable String secret) {
			this.secret = secret;
		}

		public Duration getValidity() {
			return this.validity;
		}

		public void setValidity(Duration validity) {
			this.validity = validity;
		}

	}

	/**
	 * Resources published on the MCP server (by Spring AI's {@code @McpResource} methods
	 * or resource specification beans).
	 */
	public static class Resources {

		/**
		 * Whether clients may subscribe to resources (resources/subscribe), to receive
		 * notifications/resources/updated when the application reports a change through
		 * McpResourceUpdates.
		 */
		private boolean subscribe;

		public boolean isSubscribe() {
			return this.subscribe;
		}

		public void setSubscribe(boolean subscribe) {
			this.subscribe = subscribe;
		}

	}

	/**
	 * Where the sessions of the Streamable HTTP endpoint are kept: in each instance's
	 * memory, or in the database every instance shares, so that any instance behind a
	 * load balancer accepts a session another one started.
	 */
	public static class Sessions {

		/**
		 * The session store.
		 */
		@NestedConfigurationProperty
		private final StoreSettings store = new StoreSettings();

		public StoreSettings getStore() {
			return this.store;
		}

	}

	/**
	 * The tasks of MCP 2026-07-28's tasks extension: a call of a tool declared
	 * {@code @AgentTool(taskSupport = ...)} runs in the background, and its client polls
	 * it. Kept in each instance's memory, or in the database every instance shares, so
	 * that any instance answers tasks/get, tasks/update and tasks/cancel.
	 */
	public static class Tasks {

		/**
		 * How long a task is kept after its last change (its ttlMs).
		 */
		private Duration ttl = Duration.ofHours(1);

		/**
		 * How often a client should poll a task (its pollIntervalMs).
		 */
		private Duration pollInterval = Duration.ofSeconds(1);

		/**
		 * The task store.
		 */
		@NestedConfigurationProperty
		private final StoreSettings store = new StoreSettings();

		public Duration getTtl() {
			return this.ttl;
		}

		public void setTtl(Duration ttl) {
			this.ttl = ttl;
		}

		public Duration getPollInterval() {
			return this.pollInterval;
		}

		public void setPollInterval(Duration pollInterval) {
			this.pollInterval = pollInterval;
		}

		public StoreSettings getStore() {
			return this.store;
		}

	}

	/**
	 * Settings of the MCP endpoint as an OAuth 2.1 resource server, active when Spring
	 * Security's resource server is on the classpath and
	 * {@code spring.security.oauth2.resourceserver.jwt.*} configures a token decoder.
	 */
	public static class Security {

		/**
		 * Resource identifier of the MCP endpoint (RFC 8707 / RFC 9728) that a token's
		 * audience must contain; not set: derived from each request as
		 * scheme://host:port, context path and MCP endpoint path.
		 */
		private @Nullable String resource;

		/**
		 * Issuer that every token must name in its iss claim, for a resource server that
		 * Spring Boot cannot tell the issuer
		 * (spring.security.oauth2.resourceserver.jwt.public-key-location, which Boot uses
		 * only without an issuer-uri); not set: the issuer-uri, if any.
		 */
		private @Nullable String issuer;

		/**
		 * Authorization servers published in the protected-resource metadata; not set:
		 * the issuer, else the configured issuer-uri.
		 */
		private List<String> authorizationServers = new ArrayList<>();

		/**
		 * Scopes published in the protected-resource metadata as scopes_supported.
		 */
		private List<String> scopes = new ArrayList<>();

		/**
		 * Whether an MCP endpoint without authentication is intended, which silences the
		 * startup warning; has no effect when a resource server is configured.
		 */
		private boolean allowAnonymous;

		public @Nullable String getResource() {
			return this.resource;
		}

		public void setResource(@Nullable String resource) {
			this.resource = resource;
		}

		public @Nullable String getIssuer() {
			return this.issuer;
		}

		public void setIssuer(@Nullable String issuer) {
			this.issuer = issuer;
		}

		public List<String> getAuthorizationServers() {
			return this.authorizationServers;
		}

		public void setAuthorizationServers(List<String> authorizationServers) {
			this.authorizationServers = authorizationServers;
		}

		public List<String> getScopes() {
			return this.scopes;
		}

		public void setScopes(List<String> scopes) {
			this.scopes = scopes;
		}

		public boolean isAllowAnonymous() {
			return this.allowAnonymous;
		}

		public void setAllowAnonymous(boolean allowAnonymous) {
			this.allowAnonymous = allowAnonymous;
		}

	}

	/**
	 * Settings of the hardened Streamable HTTP transport.
	 */
	public static class Transport {

		/**
		 * Whether the hardened transport replaces Spring AI's Streamable HTTP transport
		 * for Spring MVC.
		 */
		private boolean enabled = true;

		/**
		 * Largest accepted message body; a larger one is answered with 413 before it is
		 * parsed.
		 */
		private DataSize maxRequestSize = DataSize.ofMegabytes(4);

		/**
		 * Origins a browser page may call the endpoint from; deprecated: set
		 * agent.middleware.edge.allowed-origins, which guards every path the starter
		 * serves.
		 */
		private @Nullable List<String> allowedOrigins;

		/**
		 * Host names or addresses the endpoint answers to; deprecated: set
		 * agent.middleware.edge.allowed-hosts, which guards every path the starter
		 * serves.
		 */
		private @Nullable List<String> allowedHosts;

		/**
		 * How long a session may stay unused before it expires.
		 */
		private Duration sessionIdleTimeout = Duration.ofMinutes(30);

		/**
		 * Number of live sessions at most; further clients are refused with 503 until a
		 * session ends or expires.
		 */
		private int maxSessions = 1000;

		/**
		 * How long a client whose event stream broke waits before it reconnects with
		 * Last-Event-ID to resume it: the retry field of the priming event that starts
		 * every stream of a session on protocol 2025-11-25 or later; 0 sends no priming
		 * event.
		 */
		private Duration sseRetry = Duration.ofSeconds(1);

		/**
		 * How long the stream of a request may hold its priming event back for its first
		 * message: a call answered within it sends the priming event with its answer, in
		 * one write; a longer call gets it sent alone once the hold has passed (at most
		 * twice the hold after the request arrived). 0 sends it at once, as the
		 * specification suggests, at the cost of one more write per request.
		 */
		private Duration primingHold = Duration.ofMillis(50);

		public boolean isEnabled() {
			return this.enabled;
		}

		public void setEnabled(boolean enabled) {
			this.enabled = enabled;
		}

		public DataSize getMaxRequestSize() {
			return this.maxRequestSize;
		}

		public void setMaxRequestSize(DataSize maxRequestSize) {
			this.maxRequestSize = maxRequestSize;
		}

		@Deprecated(since = "0.1.0")
		@DeprecatedConfigurationProperty(replacement = "agent.middleware.edge.allowed-origins")
		public @Nullable List<String> getAllowedOrigins() {
			return this.allowedOrigins;
		}

		@Deprecated(since = "0.1.0")
		public void setAllowedOrigins(@Nullable List<String> allowedOrigins) {
			this.allowedOrigins = allowedOrigins;
		}

		@Deprecated(since = "0.1.0")
		@DeprecatedConfigurationProperty(replacement = "agent.middleware.edge.allowed-hosts")
		public @Nullable List<String> getAllowedHosts() {
			return this.allowedHosts;
		}

		@Deprecated(since = "0.1.0")
		public void setAllowedHosts(@Nullable List<String> allowedHosts) {
			this.allowedHosts = allowedHosts;
		}

		public Duration getSessionIdleTimeout() {
			return this.sessionIdleTimeout;
		}

		public void setSessionIdleTimeout(Duration sessionIdleTimeout) {
			this.sessionIdleTimeout = sessionIdleTimeout;
		}

		public int getMaxSessions() {
			return this.maxSessions;
		}

		public void setMaxSessions(int maxSessions) {
			this.maxSessions = maxSessions;
		}

		public Duration getSseRetry() {
			return this.sseRetry;
		}

		public void setSseRetry(Duration sseRetry) {
			this.sseRetry = sseRetry;
		}

		public Duration getPrimingHold() {
			return this.primingHold;
		}

		public void setPrimingHold(Duration primingHold) {
			this.primingHold = primingHold;
		}

	}

	/**
	 * How one tool is presented to MCP clients.
	 */
	public static class Tool {

		/**
		 * Icons a client may show beside the tool, published as its MCP icons; replace
		 * those of @AgentTool(icons).
		 */
		private List<Icon> icons = new ArrayList<>();

		public List<Icon> getIcons() {
			return this.icons;
		}

		public void setIcons(List<Icon> icons) {
			this.icons = icons;
		}

	}

	/**
	 * One icon of a tool (MCP 2025-11-25 {@code Icon}).
	 */
	public static class Icon {

		/**
		 * Where the icon is: an https: or http: URL, or a data: URI.
		 */
		private @Nullable String src;

		/**
		 * The icon's media type, such as image/png; not set: taken from the data: URI or
		 * the URL's file extension.
		 */
		private @Nullable String mimeType;

		/**
		 * The sizes the icon fits, each WIDTHxHEIGHT such as 48x48, or any for a scalable
		 * icon; empty: any size.
		 */
		private List<String> sizes = new ArrayList<>();

		/**
		 * The background the icon is drawn for: any, light or dark.
		 */
		private AgentToolIcon.Theme theme = AgentToolIcon.Theme.ANY;

		public @Nullable String getSrc() {
			return this.src;
		}

		public void setSrc(@Nullable String src) {
			this.src = src;
		}

		public @Nullable String getMimeType() {
			return this.mimeType;
		}

		public void setMimeType(@Nullable String mimeType) {
			this.mimeType = mimeType;
		}

		public List<String> getSizes() {
			return this.sizes;
		}

		public void setSizes(List<String> sizes) {
			this.sizes = sizes;
		}

		public AgentToolIcon.Theme getTheme() {
			return this.theme;
		}

		public void setTheme(AgentToolIcon.Theme theme) {
			this.theme = theme;
		}

	}

}
