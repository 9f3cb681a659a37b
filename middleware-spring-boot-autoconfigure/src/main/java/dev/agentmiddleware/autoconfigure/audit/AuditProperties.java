package dev.agentmiddleware.autoconfigure.audit;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import dev.agentmiddleware.autoconfigure.ConditionalOnStoreType.StoreSettings;
import dev.agentmiddleware.autoconfigure.tool.PropertyChecks;
import dev.agentmiddleware.autoconfigure.tool.ValidatedProperties;

import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.NestedConfigurationProperty;

/**
 * Configuration of the audit trail of tool calls.
 */
@ConfigurationProperties(AuditProperties.PREFIX)
public class AuditProperties implements ValidatedProperties {

	/** The prefix of the audit properties. */
	public static final String PREFIX = "agent.middleware.audit";

	/**
	 * Whether every tool call leaves an audit record.
	 */
	private boolean enabled = true;

	/**
	 * How long records are kept; older ones are purged once an hour. Empty to keep them.
	 */
	private @Nullable Duration retention = Duration.ofDays(90);

	/**
	 * Tools whose records include their arguments, as redacted JSON; every other record
	 * holds only the SHA-256 of its arguments.
	 */
	private List<String> includeArguments = new ArrayList<>();

	/**
	 * How many records may wait to be written (during a database outage, say); beyond it
	 * records are dropped and counted (agent.audit.records.dropped).
	 */
	private int bufferCapacity = 10_000;

	/**
	 * How many records are written at once.
	 */
	private int batchSize = 100;

	/**
	 * How long the writer waits before writing a batch the store refused again.
	 */
	private Duration retryInterval = Duration.ofSeconds(5);

	@NestedConfigurationProperty
	private final StoreSettings store = new StoreSettings();

	private final Memory memory = new Memory();

	private final Jdbc jdbc = new Jdbc();

	private final Web web = new Web();

	@Override
	public void validate(PropertyChecks checks) {
		this.store.getType().requireMemoryOrJdbc(checks.property("store.type"));
		checks.positive("retention", this.retention);
		checks.noBlankElement("includeArguments", this.includeArguments);
		checks.atLeast("bufferCapacity", this.bufferCapacity, 1);
		checks.atLeast("batchSize", this.batchSize, 1);
		checks.positive("retryInterval", this.retryInterval);
		checks.atLeast("memory.maxRecords", this.memory.getMaxRecords(), 1);
		checks.startsWith("web.path", this.web.getPath(), "/");
		checks.notBlank("web.role", this.web.getRole());
		if (this.web.getTokenAuthority() != null) {
			checks.notBlank("web.tokenAuthority", this.web.getTokenAuthority());
		}
	}

	public boolean isEnabled() {
		return this.enabled;
	}

	public void setEnabled(boolean enabled) {
		this.enabled = enabled;
	}

	public @Nullable Duration getRetention() {
		return this.retention;
	}

	public void setRetention(@Nullable Duration retention) {
		this.retention = retention;
	}

	public List<String> getIncludeArguments() {
		return this.includeArguments;
	}

	public void setIncludeArguments(List<String> includeArguments) {
		this.includeArguments = includeArguments;
	}

	public int getBufferCapacity() {
		return this.bufferCapacity;
	}

	public void setBufferCapacity(int bufferCapacity) {
		this.bufferCapacity = bufferCapacity;
	}

	public int getBatchSize() {
		return this.batchSize;
	}

	public void setBatchSize(int batchSize) {
		this.batchSize = batchSize;
	}

	public Duration getRetryInterval() {
		return this.retryInterval;
	}

	public void setRetryInterval(Duration retryInterval) {
		this.retryInterval = retryInterval;
	}

	/**
	 * Which store keeps the records.
	 * @return its settings
	 */
	public StoreSettings getStore() {
		return this.store;
	}

	public Memory getMemory() {
		return this.memory;
	}

	public Jdbc getJdbc() {
		return this.jdbc;
	}

	public Web getWeb() {
		return this.web;
	}

	/**
	 * Settings of the audit REST API (the approval web module serves it, with Spring
	 * Security only).
	 */
	public static class Web {

		/**
		 * Whether the audit REST API and its JSON Lines export are served (in a servlet
		 * web application with Spring Security; without it they are not served).
		 */
		private boolean enabled = true;

		/**
		 * Base path of the audit REST API; the JSON Lines export is at {path}/export.
		 */
		private String path = "/agent/audit";

		/**
		 * Role a user needs to read the audit trail: the authority ROLE_{role}. Approvers
		 * do not have it unless given.
		 */
		private String role = "auditor";

		/**
		 * Authority that a bearer token (a JWT the application's JwtDecoder accepts)
		 * gives its holder to read the audit trail, as Spring Security converts the
		 * token, such as SCOPE_audit for the scope 'audit'; set, the REST API and export
		 * accept bearer tokens as well as logins; not set: logins only.
		 */
		private @Nullable String tokenAuthority;

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

	}

	/**
	 * Settings of the in-memory audit store.
	 */
	public static class Memory {

		/**
		 * How many records the in-memory store keeps; beyond it the oldest are dropped.
		 */
		private int maxRecords = 10_000;

		public int getMaxRecords() {
			return this.maxRecords;
		}

		public void setMaxRecords(int maxRecords) {
			this.maxRecords = maxRecords;
		}

	}

	/**
	 * Settings of the JDBC audit store.
	 */
	public static class Jdbc {

		/**
		 * Whether to create the agent_audit_record table on startup when it does not
		 * exist.
		 */
		private boolean initializeSchema = true;

		public boolean isInitializeSchema() {
			return this.initializeSchema;
		}

		public void setInitializeSchema(boolean initializeSchema) {
			this.initializeSchema = initializeSchema;
		}

	}

}
