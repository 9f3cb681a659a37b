package dev.agentmiddleware.approval;

import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.Objects;
import java.util.Set;
import java.util.function.UnaryOperator;

import dev.agentmiddleware.tool.ToolDescriptor;
import dev.agentmiddleware.tool.ToolDescriptor.SafetyLevel;

/**
 * The one function that decides whether a tool needs a human's approval, used when pipelines are built, at
 * startup to list the gated tools, and by the tests of the policy table:
 * <ol>
 * <li>an exempt tool never needs approval (this beats everything);</li>
 * <li>a sensitive tool always needs approval;</li>
 * <li>otherwise the {@link ApprovalPolicy} decides: {@code NONE} and {@code CONFIGURED} ask for nothing,
 * {@code ALL} asks for everything, {@code DANGEROUS} asks for tools whose safety is
 * {@link SafetyLevel#DANGEROUS} (which a tool that declares no safety level has).</li>
 * </ol>
 * Immutable and thread-safe.
 * <pre>{@code
 * ApprovalRules rules = ApprovalRules.of(ApprovalPolicy.DANGEROUS, Set.of("purge_cache"), Set.of("write_file"));
 * rules.requiresApproval(deleteFile); // true: dangerous
 * rules.requiresApproval(writeFile);  // true: sensitive
 * rules.requiresApproval(purgeCache); // false: exempt
 * }</pre>
 */
public final class ApprovalRules {

	private final ApprovalPolicy policy;

	private final Set<String> exemptTools;

	private final Set<String> sensitiveTools;

	private final UnaryOperator<String> nameForm;

	private ApprovalRules(ApprovalPolicy policy, Collection<String> exemptTools, Collection<String> sensitiveTools,
			UnaryOperator<String> nameForm) {
		this.policy = Objects.requireNonNull(policy, "policy");
		this.nameForm = Objects.requireNonNull(nameForm, "nameForm");
		this.exemptTools = normalized(exemptTools, nameForm);
		this.sensitiveTools = normalized(sensitiveTools, nameForm);
	}

	/**
	 * Rules that match tool names exactly.
	 * @param policy the policy by safety level
	 * @param exemptTools tools that never need approval
	 * @param sensitiveTools tools that always need approval unless exempt
	 * @return the rules
	 */
	public static ApprovalRules of(ApprovalPolicy policy, Collection<String> exemptTools,
			Collection<String> sensitiveTools) {
		return new ApprovalRules(policy, exemptTools, sensitiveTools, UnaryOperator.identity());
	}

	/**
	 * A copy that compares tool names in a normal form, such as lower case without separators, so that names
	 * written in configuration or environment variables match.
	 * @param nameForm turns a tool name into its normal form
	 * @return the changed copy
	 */
	public ApprovalRules withNameForm(UnaryOperator<String> nameForm) {
		return new ApprovalRules(this.policy, this.exemptTools, this.sensitiveTools, nameForm);
	}

	/**
	 * Whether calls of the tool need a human's approval.
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
		return switch (this.policy) {
			case NONE, CONFIGURED -> false;
			case ALL -> true;
			case DANGEROUS -> tool.safety() == SafetyLevel.DANGEROUS;
		};
	}

	/**
	 * The policy by safety level.
	 * @return the policy
	 */
	public ApprovalPolicy policy() {
		return this.policy;
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
		return "ApprovalRules[policy=" + this.policy + ", exempt=" + this.exemptTools + ", sensitive="
				+ this.sensitiveTools + "]";
	}

	/**
	 * Which tools need a human's approval before they run, by their safety level. {@link ApprovalRules} adds the
	 * exempt and sensitive tool lists on top.
	 */
	public enum ApprovalPolicy {

		/** No tool needs approval, except the sensitive tools. */
		NONE,

		/** Tools whose safety level is {@code DANGEROUS} (or undeclared) need approval; the default. */
		DANGEROUS,

		/** Every tool needs approval, except the exempt tools. */
		ALL,

		/** Only the sensitive tools need approval. */
		CONFIGURED

	}

}
