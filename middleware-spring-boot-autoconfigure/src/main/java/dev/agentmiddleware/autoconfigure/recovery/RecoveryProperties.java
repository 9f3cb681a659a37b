package dev.agentmiddleware.autoconfigure.recovery;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.agentmiddleware.autoconfigure.ToolSettings;
import dev.agentmiddleware.chain.BuiltInOrder;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * Configuration of crash recovery: which tools drive a session, and which of their failures mean the session
 * crashed.
 */
@ConfigurationProperties(RecoveryProperties.PREFIX)
public class RecoveryProperties {

	/** The prefix of the crash-recovery properties. */
	public static final String PREFIX = "agent.middleware.recovery";

	/**
	 * Whether a crashed session of a session tool is reset and the call retried once.
	 */
	private boolean enabled = true;

	/**
	 * Position of the crash-recovery layer in every tool's chain; a lower order runs further out.
	 */
	private int order = BuiltInOrder.CRASH_RECOVERY;

	/**
	 * Tags that mark a tool as driving a session, compared ignoring case.
	 */
	private List<String> tags = new ArrayList<>(List.of("browser"));

	/**
	 * Name patterns that mark a tool as driving a session: globs such as 'page_*', or regular expressions prefixed
	 * with 'regex:'.
	 */
	private List<String> toolNamePatterns = new ArrayList<>();

	private final Settings defaults = Settings.defaults();

	/**
	 * Per-tool overrides of the defaults, by tool name.
	 */
	private final Map<String, Settings> tools = new LinkedHashMap<>();

	public boolean isEnabled() {
		return this.enabled;
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

	public List<String> getTags() {
		return this.tags;
	}

	public void setTags(List<String> tags) {
		this.tags = tags;
	}

	public List<String> getToolNamePatterns() {
		return this.toolNamePatterns;
	}

	public void setToolNamePatterns(List<String> toolNamePatterns) {
		this.toolNamePatterns = toolNamePatterns;
	}

	public Settings getDefaults() {
		return this.defaults;
	}

	public Map<String, Settings> getTools() {
		return this.tools;
	}

	/**
	 * Crash recovery of a tool, or of every session tool in {@code defaults}.
	 */
	public static class Settings implements ToolSettings<Settings> {

		/**
		 * Whether crash recovery applies to the tool whatever its tags and name; unset means decided by the tags and
		 * tool name patterns.
		 */
		private @Nullable Boolean enabled;

		/**
		 * Fully qualified names of further exception types that mean the tool's session crashed; a
		 * ToolSessionCrashedException always does.
		 */
		private @Nullable List<String> crashExceptions;

		/**
		 * Whether any runtime exception of the tool (except the chain's own denials and limits) means its session
		 * crashed, as a panic would; on by default, turn it off to count only the crash exceptions.
		 */
		private @Nullable Boolean anyRuntimeExceptionIsCrash;

		static Settings defaults() {
			Settings defaults = new Settings();
			defaults.setCrashExceptions(new ArrayList<>());
			defaults.setAnyRuntimeExceptionIsCrash(true);
			return defaults;
		}

		public @Nullable Boolean getEnabled() {
			return this.enabled;
		}

		public void setEnabled(@Nullable Boolean enabled) {
			this.enabled = enabled;
		}

		public @Nullable List<String> getCrashExceptions() {
			return this.crashExceptions;
		}

		public void setCrashExceptions(@Nullable List<String> crashExceptions) {
			this.crashExceptions = crashExceptions;
		}

		public @Nullable Boolean getAnyRuntimeExceptionIsCrash() {
			return this.anyRuntimeExceptionIsCrash;
		}

		public void setAnyRuntimeExceptionIsCrash(@Nullable Boolean anyRuntimeExceptionIsCrash) {
			this.anyRuntimeExceptionIsCrash = anyRuntimeExceptionIsCrash;
		}

		@Override
		public Settings withDefaults(Settings defaults) {
			Settings merged = new Settings();
			merged.setEnabled((this.enabled != null) ? this.enabled : defaults.getEnabled());
			merged.setCrashExceptions((this.crashExceptions != null) ? this.crashExceptions
					: defaults.getCrashExceptions());
			merged.setAnyRuntimeExceptionIsCrash((this.anyRuntimeExceptionIsCrash != null)
					? this.anyRuntimeExceptionIsCrash : defaults.getAnyRuntimeExceptionIsCrash());
			return merged;
		}

	}

}
