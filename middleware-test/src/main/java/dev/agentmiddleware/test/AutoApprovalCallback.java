package dev.agentmiddleware.test;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Predicate;

import dev.agentmiddleware.approval.ApprovalDecision;
import dev.agentmiddleware.approval.ApprovalProvider.ApprovalCallback;
import dev.agentmiddleware.approval.ApprovalRequest;
import org.jspecify.annotations.Nullable;

/**
 * An {@link ApprovalCallback} that decides every request at once, by rules a test gives,
 * and remembers what it was asked: the approval middleware runs for real (its request,
 * its redaction, its audit, its outcome), only the human is replaced.
 *
 * <p>
 * Rules are tried in the order they were added; the first that matches decides. A request
 * no rule matches is denied ({@link Builder#otherwiseDeny(String)}) unless
 * {@link Builder#otherwiseApprove()} says otherwise. Every decision names
 * {@link #DECIDED_BY} as the approver unless {@link Builder#decidedBy(String)} says
 * otherwise. Safe to use from many threads. <pre>{@code
 * AutoApprovalCallback approvals = AutoApprovalCallback.builder()
 *     .approve("write_file")
 *     .deny("delete_file", "never in tests")
 *     .approveWhen((request) -> request.arguments().contains("\"tmp/"))
 *     .build();
 *
 * // in a Spring test: @Bean ApprovalCallback approvals() { return approvals; }
 * // with the harness:  ToolHarness.agentTool(new FileTools()).bean(ApprovalCallback.class, approvals).build()
 *
 * assertThat(approvals.requests("delete_file")).singleElement()
 *     .satisfies((request) -> assertThat(request.arguments()).contains("notes.txt"));
 * }</pre>
 */
public final class AutoApprovalCallback implements ApprovalCallback {

	/** The approver the decisions name by default. */
	public static final String DECIDED_BY = "auto-approval";

	private static final String NO_RULE = "no rule of the test approves it";

	private final List<Rule> rules;

	private final boolean fallbackApproves;

	private final @Nullable String fallbackReason;

	private final String decidedBy;

	private final List<ApprovalRequest> requests = new CopyOnWriteArrayList<>();

	private AutoApprovalCallback(Builder builder) {
		this.rules = List.copyOf(builder.rules);
		this.fallbackApproves = builder.fallbackApproves;
		this.fallbackReason = builder.fallbackReason;
		this.decidedBy = builder.decidedBy;
	}

	/**
	 * A callback that approves every request.
	 * @return the callback
	 */
	public static AutoApprovalCallback approveAll() {
		return builder().otherwiseApprove().build();
	}

	/**
	 * A callback that denies every request.
	 * @param reason the reason the denial gives the caller
	 * @return the callback
	 */
	public static AutoApprovalCallback denyAll(String reason) {
		return builder().otherwiseDeny(reason).build();
	}

	/**
	 * Starts a callback with rules; with none, it denies every request.
	 * @return a builder
	 */
	public static Builder builder() {
		return new Builder();
	}

	@Override
	public ApprovalDecision decide(ApprovalRequest request) {
		this.requests.add(request);
		for (Rule rule : this.rules) {
			if (rule.when().test(request)) {
				return decision(rule.approves(), rule.reason());
			}
		}
		return decision(this.fallbackApproves, this.fallbackReason);
	}

	private ApprovalDecision decision(boolean approves, @Nullable String reason) {
		return approves ? ApprovalDecision.approve(this.decidedBy) : ApprovalDecision.deny(this.decidedBy, reason);
	}

	/**
	 * Every request decided so far, in the order they came.
	 * @return an unmodifiable snapshot of the requests
	 */
	public List<ApprovalRequest> requests() {
		return List.copyOf(this.requests);
	}

	/**
	 * The requests for one tool, in the order they came.
	 * @param tool the tool name
	 * @return an unmodifiable snapshot of the requests, empty when the tool was never
	 * gated
	 */
	public List<ApprovalRequest> requests(String tool) {
		Objects.requireNonNull(tool, "tool");
		return this.requests.stream().filter((request) -> request.toolName().equals(tool)).toList();
	}

	/**
	 * Forgets the requests decided so far; the rules stay.
	 */
	public void clear() {
		this.requests.clear();
	}

	private record Rule(Predicate<ApprovalRequest> when, boolean approves, @Nullable String reason) {

	}

	/**
	 * Builds an {@link AutoApprovalCallback}. Rules are tried in the order they are
	 * added.
	 */
	public static final class Builder {

		private final List<Rule> rules = new ArrayList<>();

		private boolean fallbackApproves;

		private @Nullable String fallbackReason = NO_RULE;

		private String decidedBy = DECIDED_BY;

		private Builder() {
		}

		/**
		 * Approves every request for a tool.
		 * @param tool the tool name
		 * @return this builder
		 */
		public Builder approve(String tool) {
			Objects.requireNonNull(tool, "tool");
			return approveWhen((request) -> request.toolName().equals(tool));
		}

		/**
		 * Denies every request for a tool.
		 * @param tool the tool name
		 * @param reason the reason the denial gives the caller
		 * @return this builder
		 */
		public Builder deny(String tool, String reason) {
			Objects.requireNonNull(tool, "tool");
			return denyWhen((request) -> request.toolName().equals(tool), reason);
		}

		/**
		 * Approves the requests that match.
		 * @param when which requests (tool, redacted arguments JSON, session, principal)
		 * @return this builder
		 */
		public Builder approveWhen(Predicate<ApprovalRequest> when) {
			this.rules.add(new Rule(Objects.requireNonNull(when, "when"), true, null));
			return this;
		}

		/**
		 * Denies the requests that match.
		 * @param when which requests (tool, redacted arguments JSON, session, principal)
		 * @param reason the reason the denial gives the caller
		 * @return this builder
		 */
		public Builder denyWhen(Predicate<ApprovalRequest> when, String reason) {
			Objects.requireNonNull(reason, "reason");
			this.rules.add(new Rule(Objects.requireNonNull(when, "when"), false, reason));
			return this;
		}

		/**
		 * Approves the requests no rule matches.
		 * @return this builder
		 */
		public Builder otherwiseApprove() {
			this.fallbackApproves = true;
			this.fallbackReason = null;
			return this;
		}

		/**
		 * Denies the requests no rule matches, the default.
		 * @param reason the reason the denial gives the caller
		 * @return this builder
		 */
		public Builder otherwiseDeny(String reason) {
			this.fallbackApproves = false;
			this.fallbackReason = Objects.requireNonNull(reason, "reason");
			return this;
		}

		/**
		 * The approver the decisions name, {@value AutoApprovalCallback#DECIDED_BY} by
		 * default.
		 * @param decidedBy the approver's name
		 * @return this builder
		 */
		public Builder decidedBy(String decidedBy) {
			this.decidedBy = Objects.requireNonNull(decidedBy, "decidedBy");
			return this;
		}

		/**
		 * Builds the callback.
		 * @return the callback
		 */
		public AutoApprovalCallback build() {
			return new AutoApprovalCallback(this);
		}

	}

}
