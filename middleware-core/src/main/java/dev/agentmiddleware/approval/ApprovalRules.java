package dev.agentmiddleware.approval;

import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.Objects;
import java.util.Set;
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
 * <li>an exempt tool never needs approval (this beats everything);</li>
 * <li>a sensitive tool always needs approval;</li>
 * <li>otherwise the {@link Mode} decides: {@code NONE} and {@code CONFIGURED} ask for
 * nothing, {@code ALL} asks for everything, {@code DANGEROUS} asks for tools whose safety
 * is {@link SafetyLevel#DANGEROUS} (which a tool that declares no safety level has).</li>
 * </ol>
 * Immutable and thread-safe. <pre>{@code
 * ApprovalRules rules = ApprovalRules.of(ApprovalRules.Mode.DANGEROUS, Set.of("purge_cache"), Set.of("write_file"));
 * rules.apply(deleteFile); // REQUIRED: dangerous
 * rules.apply(writeFile);  // REQUIRED: sensitive
 * rules.apply(purgeCache); // null: exempt
 * ApprovalMiddleware approval = ApprovalMiddleware.builder().policies(rules).build();
 * }</pre>
 */
public final class ApprovalRules implements Function<ToolDescriptor, @Nullable ApprovalPolicy> {

	private final Mode mode;

	private final Set<String> exemptTools;

	private final Set<String> sensitiveTools;

	private final UnaryOperator<String> nameForm;

	private ApprovalRules(Mode mode, Collection<String> exemptTools, Collection<String> sensitiveTools,
			UnaryOperator<String> nameForm) {
		this.mode = Objects.requireNonNull(mode, "mode");
		this.nameForm = Objects.requireNonNull(nameForm, "nameForm");
		this.exemptTools = normalized(exemptTools, nameForm);
		this.sensitiveTools = normalized(sensitiveTools, nameForm);
	}

	/**
	 * Rules that match tool names exactly.
	 * @param mode which tools need approval by their safety level
	 * @param exemptTools tools that never need approval
	 * @param sensitiveTools tools that always need approval unless exempt
	 * @return the rules
	 */
	public static ApprovalRules of(Mode mode, Collection<String> exemptTools, Collection<String> sensitiveTools) {
		return new ApprovalRules(mode, exemptTools, sensitiveTools, UnaryOperator.identity());
	}

	/**
	 * A copy that compares tool names in a normal form, such as lower case without
	 * separators, so that names written in configuration or environment variables match.
	 * @param nameForm turns a tool name into its normal form
	 * @return the changed copy
	 */
	public ApprovalRules withNameForm(UnaryOperator<String> nameForm) {
		return new ApprovalRules(this.mode, this.exemptTools, this.sensitiveTools, nameForm);
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
		String name = this.nameForm.apply(tool.name());
		if (this.exemptTools.contains(name)) {
			return false;
		}
		if (this.sensitiveTools.contains(name)) {
			return true;
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

	private static Set<String> normalized(Collection<String> names, UnaryOperator<String> nameForm) {
		Set<String> normalized = new LinkedHashSet<>();
		for (String name : names) {
			normalized.add(nameForm.apply(Objects.requireNonNull(name, "tool name")));
		}
		return Set.copyOf(normalized);
	}

	@Override
	public String toString() {
		return "ApprovalRules[mode=" + this.mode + ", exempt=" + this.exemptTools + ", sensitive=" + this.sensitiveTools
				+ "]";
	}

	/**
	 * Which tools need a human's approval before they run, by their safety level (the
	 * property {@code agent.middleware.approval.policy}); the rules add the exempt and
	 * sensitive tool lists on top.
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
