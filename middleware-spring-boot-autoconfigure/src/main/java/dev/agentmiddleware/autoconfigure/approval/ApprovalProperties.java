package dev.agentmiddleware.autoconfigure.approval;

import dev.agentmiddleware.autoconfigure.tool.PropertyChecks;
import dev.agentmiddleware.autoconfigure.tool.ValidatedProperties;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.agentmiddleware.approval.ApprovalMiddleware;
import dev.agentmiddleware.approval.ApprovalRules;
import dev.agentmiddleware.approval.InMemoryApprovalStore;
import dev.agentmiddleware.autoconfigure.ConditionalOnStoreType.StoreSettings;
import dev.agentmiddleware.chain.OrderedMiddleware.BuiltInOrder;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * Configuration of human approval of tool calls.
 */
@ConfigurationProperties(ApprovalProperties.PREFIX)
public class ApprovalProperties implements ValidatedProperties {

	/** The prefix of the approval properties. */
	public static final String PREFIX = "agent.middleware.approval";

	/** Whether calls of gated tools wait for a human's approval. */
	private boolean enabled = true;

	/**
	 * Position of the approval layer in every tool's chain; a lower order runs further
	 * out.
	 */
	private int order = BuiltInOrder.APPROVAL;

	/**
	 * Which tools need approval by their safety level: none, dangerous, all, or
	 * configured (only the sensitive tools).
	 */
	private ApprovalRules.Mode policy = ApprovalRules.Mode.DANGEROUS;

	/**
	 * Approval per tool name, the same rule as every built-in's 'tools': a listed tool
	 * always needs approval unless its 'enabled' is false, which exempts it whatever the
	 * policy.
	 */
	private final Map<String, ToolApproval> tools = new LinkedHashMap<>();

	/**
	 * Deprecated: list the tool under 'tools' with 'enabled: false' instead. Tools that
	 * never need approval, whatever the policy.
	 */
	private List<String> exemptTools = new ArrayList<>();

	/**
	 * Deprecated: list the tool under 'tools' instead. Tools that always need approval
	 * unless exempt.
	 */
	private List<String> sensitiveTools = new ArrayList<>();

	/**
	 * Longest time a call waits for a decision before it is denied; keep it below the MCP
	 * client's request timeout.
	 */
	private Duration timeout = ApprovalMiddleware.DEFAULT_TIMEOUT;

	/** How long an approval for the session lets the same calls through. */
	private Duration grantTtl = ApprovalMiddleware.DEFAULT_GRANT_TTL;

	/**
	 * How long a call denied by a person is denied again at once when repeated in the
	 * same session; 0 turns this off.
	 */
	private Duration denyRepeatWindow = ApprovalMiddleware.DEFAULT_DENY_REPEAT_WINDOW;

	/**
	 * Approval providers to try, first choice first, among callback, link, queue and
	 * mcp-elicitation; the first that can handle a call asks. mcp-elicitation is not
	 * listed by default: it lets the calling MCP client's user decide.
	 */
	private List<String> providers = new ArrayList<>(List.of("callback", "link", "queue"));

	/**
	 * Whether the principal that made a call may decide its own approval request; off by
	 * default, and a startup WARN says when it is on.
	 */
	private boolean allowSelfApproval;

	private final Web web = new Web();

	private final Store store = new Store();

	@Override
	public void validate(PropertyChecks checks) {
		this.store.getType().requireMemoryOrJdbc(checks.property("store.type"));
		checks.positive("timeout", this.timeout)
			.positive("grantTtl", this.grantTtl)
			.notNegative("denyRepeatWindow", this.denyRepeatWindow)
			.noBlankElement("providers", this.providers)
			.noBlankElement("exemptTools", this.exemptTools)
			.noBlankElement("sensitiveTools", this.sensitiveTools)
			.startsWith("web.path", this.web.getPath(), "/")
			.notBlank("web.role", this.web.getRole())
			.positive("web.refreshInterval", this.web.getRefreshInterval())
			.positive("store.pollInterval", this.store.getPollInterval())
			.positive("store.abandonAfter", this.store.getAbandonAfter())
			.atLeast("store.maxAuditRecords", this.store.getMaxAuditRecords(), 1)
			.atLeast("store.maxRemembered", this.store.getMaxRemembered(), 1);
		if (this.web.getPublicUrl() != null) {
			checks.httpUrl("web.publicUrl", this.web.getPublicUrl());
		}
		if (this.store.getInstanceId() != null) {
			checks.notBlank("store.instanceId", this.store.getInstanceId());
		}
		if (this.web.getTokenAuthority() != null) {
			checks.notBlank("web.tokenAuthority", this.web.getTokenAuthority());
		}
	}

	public boolean isEnabled() {
		return this.enabled;
	}

	public Map<String, ToolApproval> getTools() {
		return this.tools;
	}

	public void setEnabled(boolean enabled) {
		this.enabled = enabled;
	}

	public int getOrder() {
		return this.order;
	}

	public void setOrder(int order) {
		this.order = order;
	}

	public ApprovalRules.Mode getPolicy() {
		return this.policy;
	}

	public void setPolicy(ApprovalRules.Mode policy) {
		this.policy = policy;
	}

	public List<String> getExemptTools() {
		return this.exemptTools;
	}

	public void setExemptTools(List<String> exemptTools) {
		this.exemptTools = exemptTools;
	}

	public List<String> getSensitiveTools() {
		return this.sensitiveTools;
	}

	public void setSensitiveTools(List<String> sensitiveTools) {
		this.sensitiveTools = sensitiveTools;
	}

	public Duration getTimeout() {
		return this.timeout;
	}

	public void setTimeout(Duration timeout) {
		this.timeout = timeout;
	}

	public Duration getGrantTtl() {
		return this.grantTtl;
	}

	public void setGrantTtl(Duration grantTtl) {
		this.grantTtl = grantTtl;
	}

	public Duration getDenyRepeatWindow() {
		return this.denyRepeatWindow;
	}

	public void setDenyRepeatWindow(Duration denyRepeatWindow) {
		this.denyRepeatWindow = denyRepeatWindow;
	}

	public List<String> getProviders() {
		return this.providers;
	}

	public void setProviders(List<String> providers) {
		this.providers = providers;
	}

	public boolean isAllowSelfApproval() {
		return this.allowSelfApproval;
	}

	public void setAllowSelfApproval(boolean allowSelfApproval) {
		this.allowSelfApproval = allowSelfApproval;
	}

	public Web getWeb() {
		return this.web;
	}

	public Store getStore() {
		return this.store;
	}

	/**
	 * Whether one tool needs approval.
	 */
	public static class ToolApproval {

		/**
		 * Whether the tool needs approval (not set: true); false exempts it whatever the
		 * policy.
		 */
		private @Nullable Boolean enabled;

		public @Nullable Boolean getEnabled() {
			return this.enabled;
		}

		public void setEnabled(@Nullable Boolean enabled) {
			this.enabled = enabled;
		}

	}

	/**
	 * The approval queue's REST API and web console.
	 */
	public static class Web {

		/**
		 * Whether the REST API and console of the approval queue are served (in a servlet
		 * web application).
		 */
		private boolean enabled = true;

		/**
		 * Base path of the REST API; the console is at {path}/console.
		 */
		private String path = "/agent/approvals";

		/**
		 * Role a user needs to see and decide approvals when Spring Security is present:
		 * the authority ROLE_{role}.
		 */
		private String role = "APPROVER";

		/**
		 * Authority that a bearer token (a JWT the application's JwtDecoder accepts)
		 * gives its holder to see and decide approvals, as Spring Security converts the
		 * token, such as SCOPE_approvals for the scope 'approvals'; set, the REST API and
		 * console accept bearer tokens as well as logins; not set: logins only.
		 */
		private @Nullable String tokenAuthority;

		/**
		 * How often the console refreshes, when the browser cannot be told at once.
		 */
		private Duration refreshInterval = Duration.ofSeconds(1);

		/**
		 * The application's base URL as approvers' browsers reach it (behind a proxy or
		 * load balancer), such as https://agents.example.com, for links to the console;
		 * not set: the base URL of the MCP request that made the call.
		 */
		private @Nullable String publicUrl;

		public boolean isEnabled() {
			return this.enabled;
		}

		public void setEnabled(boolean enabled) {
			this.enabled = enabled;
		}

		public String getPath() {
			return this.path;
		}

		public void setPath(String path) {
			this.path = path;
		}

		public String getRole() {
			return this.role;
		}

		public void setRole(String role) {
			this.role = role;
		}

		public @Nullable String getTokenAuthority() {
			return this.tokenAuthority;
		}

		public void setTokenAuthority(@Nullable String tokenAuthority) {
			this.tokenAuthority = tokenAuthority;
		}

		public Duration getRefreshInterval() {
			return this.refreshInterval;
		}

		public @Nullable String getPublicUrl() {
			return this.publicUrl;
		}

		public void setPublicUrl(@Nullable String publicUrl) {
			this.publicUrl = publicUrl;
		}

		public void setRefreshInterval(Duration refreshInterval) {
			this.refreshInterval = refreshInterval;
		}

	}

	/**
	 * Where pending requests, grants and the audit trail live.
	 */
	public static class Store extends StoreSettings {

		/**
		 * How often a waiting call checks a shared store for a decision made on another
		 * instance.
		 */
		private Duration pollInterval = Duration.ofMillis(500);

		/**
		 * How long a pending request may go without a heartbeat from its waiting call
		 * before it is marked abandoned.
		 */
		private Duration abandonAfter = Duration.ofSeconds(30);

		/**
		 * Stable name of this application instance; pending requests it owned are marked
		 * abandoned when it restarts.
		 */
		private @Nullable String instanceId;

		/**
		 * Whether the JDBC store creates its tables when they are missing.
		 */
		private boolean initializeSchema = true;

		/**
		 * How many audit records the in-memory store keeps.
		 */
		private int maxAuditRecords = InMemoryApprovalStore.DEFAULT_MAX_AUDIT_RECORDS;

		/**
		 * How many session grants, and how many denials, the in-memory store keeps at
		 * most; beyond it the oldest are forgotten (the call is asked about again).
		 */
		private int maxRemembered = InMemoryApprovalStore.DEFAULT_MAX_REMEMBERED;

		public Duration getPollInterval() {
			return this.pollInterval;
		}

		public void setPollInterval(Duration pollInterval) {
			this.pollInterval = pollInterval;
		}

		public Duration getAbandonAfter() {
			return this.abandonAfter;
		}

		public void setAbandonAfter(Duration abandonAfter) {
			this.abandonAfter = abandonAfter;
		}

		public @Nullable String getInstanceId() {
			return this.instanceId;
		}

		public void setInstanceId(@Nullable String instanceId) {
			this.instanceId = instanceId;
		}

		public boolean isInitializeSchema() {
			return this.initializeSchema;
		}

		public void setInitializeSchema(boolean initializeSchema) {
			this.initializeSchema = initializeSchema;
		}

		public int getMaxRemembered() {
			return this.maxRemembered;
		}

		public void setMaxRemembered(int maxRemembered) {
			this.maxRemembered = maxRemembered;
		}

		public int getMaxAuditRecords() {
			return this.maxAuditRecords;
		}

		public void setMaxAuditRecords(int maxAuditRecords) {
			this.maxAuditRecords = maxAuditRecords;
		}

	}

}
