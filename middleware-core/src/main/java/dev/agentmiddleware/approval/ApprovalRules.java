package dev.agentmiddleware.approval;

import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;
import java.util.function.UnaryOperator;

import dev.agentmiddleware.tool.ToolDescriptor.SafetyLevel;
import dev.agentmiddleware.tool.ToolDescriptor;
import org.jspecify.annotations.Nullable;

/**
 * The built-in policy function of approval: gives a tool {@link ApprovalPolicy#REQUIRED}
 * when it needs a human's approval, {@code null} when it needs none. The one function
 * used when pipelines are built ({@code ApprovalMiddleware.builder().policies(rules)},
 * the default with {@link Mode#DANGEROUS}), at startup to list the gated tools, and by
 * the tests of the policy table:
 * <ol>
 * <li>a tool with a decision of its own (a per-tool setting) gets it: an exempt tool
 * never needs approval, a sensitive tool always does;</li>
 * <li>otherwise the {@link Mode} decides: {@code NONE} and {@code CONFIGURED} ask for
 * nothing, {@code ALL} asks for everything, {@code DANGEROUS} asks for tools whose safety
 * is {@link SafetyLevel#DANGEROUS} (which a tool that declares no safety level has).</li>
 * </ol>
 * Immutable and thread-safe. <pre>{@code
 * ApprovalRules rules = ApprovalRules.of(ApprovalRules.Mode.DANGEROUS, Map.of("purge_cache", false, "write_file", true));
 * rules.apply(deleteFile); // REQUIRED: dangerous
 * rules.apply(writeFile);  // REQUIRED: sensitive
 * rules.apply(purgeCache); // null: exempt
 * ApprovalMiddleware approval = ApprovalMiddleware.builder().policies(rules).build();
 * }</pre>
 */
public final class ApprovalRules implements Function<ToolDescriptor, @Nullable ApprovalPolicy> {

	private final Mode mode;

	// Each tool with a decision of its own (in its normal form): whether it needs
	// approval
	private final Map<String, Boolean> tools;

	private final UnaryOperator<String> nameForm;

	private ApprovalRules(Mode mode, Map<String, Boolean> tools, UnaryOperator<String> nameForm) {
		this.mode = Objects.requireNonNull(mode, "mode");
		this.nameForm = Objects.requireNonNull(nameForm, "nameForm");
		this.tools = normalized(tools, nameForm);
	}

	/**
	 * Rules that match tool names exactly, with a decision for each listed tool (a
	 * per-tool setting such as {@code agent.middleware.approval.tools.<name>.enabled}).
	 * @param mode which tools need approval by their safety level
	 * @param tools for each listed tool, whether it needs approval: {@code true} always
	 * (sensitive), {@code false} never (exempt)
	 * @return the rules
	 */
	public static ApprovalRules of(Mode mode, Map<String, Boolean> tools) {
		return new ApprovalRules(mode, tools, UnaryOperator.identity());
	}

	/**
	 * Rules that match tool names exactly, from two lists: the same as
	 * {@link #of(Mode, Map)} with {@code true} for each sensitive tool and {@code false}
	 * for each exempt one (a tool in both lists is exempt).
	 * @param mode which tools need approval by their safety level
	 * @param exemptTools tools that never need approval
	 * @param sensitiveTools tools that always need approval unless exempt
	 * @return the rules
	 */
	public static ApprovalRules of(Mode mode, Collection<String> exemptTools, Collection<String> sensitiveTools) {
		Map<String, Boolean> tools = new LinkedHashMap<>();
		sensitiveTools.forEach((name) -> tools.put(Objects.requireNonNull(name, "tool name"), true));
		exemptTools.forEach((name) -> tools.put(Objects.requireNonNull(name, "tool name"), false));
		return of(mode, tools);
	}

	/**
	 * A copy that compares tool names in a normal form, such as lower case without
	 * separators, so that names written in configuration or environment variables match.
	 * @param nameForm turns a tool name into its normal form
	 * @return the changed copy
	 */
	public ApprovalRules withNameForm(UnaryOperator<String> nameForm) {
		return new ApprovalRules(this.mode, this.tools, nameForm);
	}

	/**
	 * The approval policy of a tool.
	 * @param tool the tool
	 * @return {@link ApprovalPolicy#REQUIRED} when the tool is gated, {@code null} when
	 * it needs no approval
	 */
	@Override
	public @Nullable ApprovalPolicy apply(ToolDescriptor tool) {
		return requiresApproval(tool) ? ApprovalPolicy.REQUIRED : null;
	}

	/**
	 * Whether calls of the tool need a human's approval: whether {@link #apply} gives it
	 * a policy.
	 * @param tool the tool
	 * @return {@code true} when the tool is gated
	 */
	public boolean requiresApproval(ToolDescriptor tool) {
		Boolean decision = this.tools.get(this.nameForm.apply(tool.name()));
		if (decision != null) {
			return decision;
		}
		return switch (this.mode) {
			case NONE, CONFIGURED -> false;
			case ALL -> true;
			case DANGEROUS -> tool.safety() == SafetyLevel.DANGEROUS;
		};
	}

	/**
	 * Which tools need approval by their safety level.
	 * @return the mode
	 */
	public Mode mode() {
		return this.mode;
	}

	// Two names with one normal form are one tool: exempt if either entry says so
	private static Map<String, Boolean> normalized(Map<String, Boolean> tools, UnaryOperator<String> nameForm) {
		Map<String, Boolean> normalized = new LinkedHashMap<>();
		tools.forEach(
				(name, requiresApproval) -> normalized.merge(nameForm.apply(Objects.requireNonNull(name, "tool name")),
						Objects.requireNonNull(requiresApproval, () -> "decision of tool '" + name + "'"),
						Boolean::logicalAnd));
		return Map.copyOf(normalized);
	}

	@Override
	public String toString() {
		return "ApprovalRules[mode=" + this.mode + ", tools=" + this.tools + "]";
	}

	/**
	 * Which tools need a human's approval before they run, by their safety level (the
	 * property {@code agent.middleware.approval.policy}); the tools with a decision of
	 * their own are decided by it instead.
	 */
	public enum Mode {

		/** No tool needs approval, except the sensitive tools. */
		NONE,

		/**
		 * Tools whose safety level is {@code DANGEROUS} (or undeclared) need approval;
		 * the default.
		 */
		DANGEROUS,

		/** Every tool needs approval, except the exempt tools. */
		ALL,

		/** Only the sensitive tools need approval. */
		CONFIGURED

	}

}
