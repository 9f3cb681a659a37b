package dev.agentmiddleware.autoconfigure.recovery;

import dev.agentmiddleware.autoconfigure.tool.PropertyChecks;
import java.util.ArrayList;
import java.util.List;

import dev.agentmiddleware.autoconfigure.ToolMiddlewareProperties;
import dev.agentmiddleware.autoconfigure.PerToolSettings.AbstractToolSettings;
import dev.agentmiddleware.chain.OrderedMiddleware.BuiltInOrder;
import dev.agentmiddleware.chain.InvalidPolicyException;
import dev.agentmiddleware.recovery.CrashRecoveryPolicy;
import dev.agentmiddleware.recovery.CrashRecoveryPolicy.SessionToolMatcher;
import dev.agentmiddleware.tool.ToolDescriptor;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.util.ClassUtils;

import static dev.agentmiddleware.autoconfigure.PerToolSettings.required;

/**
 * Configuration of crash recovery: which tools drive a session, and which of their
 * failures mean the session crashed.
 */
@ConfigurationProperties(CrashRecoveryProperties.PREFIX)
class CrashRecoveryProperties extends ToolMiddlewareProperties<CrashRecoveryProperties.Settings, CrashRecoveryPolicy> {

	/** The prefix of the crash-recovery properties. */
	public static final String PREFIX = "agent.middleware.crash-recovery";

	/**
	 * Tags that mark a tool as driving a session, compared ignoring case.
	 */
	private List<String> tags = new ArrayList<>(List.of("browser"));

	/**
	 * Name patterns that mark a tool as driving a session: globs such as 'page_*', or
	 * regular expressions prefixed with 'regex:'.
	 */
	private List<String> toolNamePatterns = new ArrayList<>();

	public CrashRecoveryProperties() {
		super(PREFIX, BuiltInOrder.CRASH_RECOVERY, Settings.defaults());
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

	/**
	 * The tools that drive a session, by {@link #getTags() tags} and
	 * {@link #getToolNamePatterns() name patterns}.
	 * @return the matcher
	 */
	public SessionToolMatcher sessionTools() {
		return SessionToolMatcher.of(this.tags, this.toolNamePatterns);
	}

	@Override
	public void validate() {
		sessionTools();
		super.validate();
	}

	@Override
	protected void validateOwnSettings(PropertyChecks checks) {
		checks.noBlankElement("tags", this.tags).noBlankElement("toolNamePatterns", this.toolNamePatterns);
	}

	@Override
	protected boolean appliesByDefault(ToolDescriptor tool) {
		return sessionTools().matches(tool);
	}

	@Override
	protected CrashRecoveryPolicy createPolicy(Settings settings) {
		List<String> names = required(settings.getCrashExceptions(), "crashExceptions");
		List<Class<? extends Exception>> types = new ArrayList<>(names.size());
		for (String name : names) {
			types.add(exceptionType(name.strip()));
		}
		return new CrashRecoveryPolicy(types,
				required(settings.getAnyRuntimeExceptionIsCrash(), "anyRuntimeExceptionIsCrash"));
	}

	private static Class<? extends Exception> exceptionType(String name) {
		Class<?> type;
		try {
			type = ClassUtils.forName(name, null);
		}
		catch (ClassNotFoundException | LinkageError ex) {
			throw new InvalidPolicyException("crashExceptions", "crashExceptions names the class '" + name
					+ "', which cannot be loaded; use the fully qualified name of an exception type");
		}
		if (!Exception.class.isAssignableFrom(type)) {
			throw new InvalidPolicyException("crashExceptions",
					"crashExceptions names the class '" + name + "', which is not an exception type");
		}
		return type.asSubclass(Exception.class);
	}

	/**
	 * Crash recovery of a tool, or of every session tool in {@code defaults}.
	 *
	 * <p>
	 * {@code enabled}: Whether crash recovery applies: under 'defaults', to every tool
	 * not listed (not set: the tools matched by 'tags' and 'tool-name-patterns'); under
	 * 'tools', to that tool whatever its tags and name (not set: true).
	 */
	public static class Settings extends AbstractToolSettings<Settings> {

		/**
		 * Fully qualified names of further exception types that mean the tool's session
		 * crashed; a ToolSessionCrashedException always does.
		 */
		private @Nullable List<String> crashExceptions;

		/**
		 * Whether any runtime exception of the tool (except the chain's own denials and
		 * limits) means its session crashed, as a panic would; on by default, turn it off
		 * to count only the crash exceptions.
		 */
		private @Nullable Boolean anyRuntimeExceptionIsCrash;

		static Settings defaults() {
			Settings defaults = new Settings();
			defaults.setCrashExceptions(new ArrayList<>());
			defaults.setAnyRuntimeExceptionIsCrash(true);
			return defaults;
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

	}

}
