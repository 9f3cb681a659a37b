package dev.agentmiddleware.approval;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

import dev.agentmiddleware.approval.ApprovalAuditListener.ApprovalOutcome;
import dev.agentmiddleware.approval.ApprovalProvider.ApprovalQueueProvider;
import dev.agentmiddleware.approval.ApprovalProvider.CompositeApprovalProvider;
import dev.agentmiddleware.chain.BuiltInMiddleware;
import dev.agentmiddleware.chain.OrderedMiddleware.BuiltInOrder;
import dev.agentmiddleware.chain.ToolCall;
import dev.agentmiddleware.tool.ToolProgress.ProgressTarget;
import dev.agentmiddleware.tool.CallResumption;
import dev.agentmiddleware.tool.ToolDescriptor;
import dev.agentmiddleware.tool.ToolHandler;
import dev.agentmiddleware.tool.ToolInvocation;
import org.jspecify.annotations.Nullable;

/**
 * Human approval of tool calls (seed {@code WithApproval}). Applies only to the tools its
 * policy function gives an {@link ApprovalPolicy} (by default {@link ApprovalRules} with
 * {@link ApprovalRules.Mode#DANGEROUS}); for every other tool it returns {@code next}
 * when the pipeline is built and costs nothing per call.
 *
 * <p>
 * Per call of a gated tool:
 * <ol>
 * <li>a {@link SessionGrant} of the caller's session that covers the call lets it through
 * without asking;</li>
 * <li>a call a person denied earlier in the same session, with the same arguments, within
 * the deny-repeat window, is denied again at once;</li>
 * <li>otherwise an {@link ApprovalRequest} (redacted arguments, arguments hash, session,
 * principal, summary) is saved in the {@link ApprovalStore} and given to the
 * {@link ApprovalProvider}, and the call waits for the decision, at most until the
 * timeout. The decision applies to this call only. A call that carries a
 * {@link ProgressTarget} (an MCP client sent a {@code progressToken}) tells its caller,
 * once per interval, what it waits for: "waiting for approval of delete_file, 40 s
 * left".</li>
 * </ol>
 * Fail-closed: a timeout, no approver, or a provider that fails deny the call with an
 * {@link ApprovalDeniedException} that says which. Approved with changed arguments, the
 * new arguments are bound and validated by the {@link ArgumentsBinder} like a new call,
 * for the same tool. Every outcome is written to the audit trail, and counted once by the
 * outcome counter of the auto-configuration (an {@link ApprovalAuditListener}). Parallel
 * calls wait and are decided independently.
 *
 * <p>
 * A call served in rounds carries a {@link CallResumption} (MCP {@code 2026-07-28}: the
 * call answers {@code input_required} and its client retries it). Its first round saves
 * the request as above and carries its id ({@value #CARRIED_REQUEST}) to the retry; each
 * round waits at most the resumption's round time, then ends with a
 * {@link dev.agentmiddleware.tool.ToolInputRequiredException} while the request stays
 * pending. The retry, on any instance that shares the store, continues with that request
 * if it is for the same tool, arguments hash and principal (else it makes a new one and
 * logs the mismatch): a request decided in between (console, REST, link, the client's
 * user) is applied as decided, a pending one is asked about again and waited for again,
 * until it expires (denied as timed out). One request, one decision, one audit record,
 * however many rounds: a retry of a call whose approval was already applied (its tool
 * asked its client in turn) runs the tool without recording the decision again.
 *
 * <p>
 * Split by job: a gate (rules, grants, repeated denials), a wait (ask the provider, wait
 * with a timeout, fail closed) and an audit (records, listeners); this class applies the
 * decision. <pre>{@code
 * ApprovalMiddleware approval = ApprovalMiddleware.builder()
 *     .policies(ApprovalRules.of(ApprovalRules.Mode.DANGEROUS, Set.of(), Set.of("write_file")))
 *     .provider(new CompositeApprovalProvider(List.of(new ApprovalQueueProvider())))
 *     .timeout(Duration.ofMinutes(2))
 *     .build();
 * }</pre>
 */
public final class ApprovalMiddleware extends BuiltInMiddleware<ApprovalPolicy> {

	/** The name shown in chains, observer records and denials. */
	public static final String NAME = "approval";

	/**
	 * The name under which a call served in rounds carries the id of its approval request
	 * ({@link CallResumption#carry}).
	 */
	public static final String CARRIED_REQUEST = "approval.request";

	/**
	 * The name under which a call served in rounds carries the id of the approval request
	 * whose approval it already applied (and recorded).
	 */
	public static final String CARRIED_APPLIED = "approval.applied";

	/** The default time a call waits for a decision: two minutes. */
	public static final Duration DEFAULT_TIMEOUT = Duration.ofMinutes(2);

	/** The default life of a session grant: one hour. */
	public static final Duration DEFAULT_GRANT_TTL = Duration.ofHours(1);

	/**
	 * The default window in which a denied call is denied again without asking: five
	 * minutes.
	 */
	public static final Duration DEFAULT_DENY_REPEAT_WINDOW = Duration.ofMinutes(5);

	private final ApprovalGate gate;

	private final ApprovalWait wait;

	private final ApprovalAudit audit;

	private final ApprovalVerdict verdict;

	private final ApprovalStore store;

	private final ApprovalArguments arguments;

	private ApprovalMiddleware(Builder builder) {
		super(NAME, builder);
		this.store = builder.store;
		this.arguments = new ApprovalArguments(redactor());
		this.gate = new ApprovalGate(builder.store, builder.denyRepeatWindow);
		this.audit = new ApprovalAudit(builder.store, metrics(), builder.listeners, clock());
		this.wait = new ApprovalWait(builder.provider, builder.store, this.arguments, redactor(), this.audit, clock(),
				builder.timeout);
		this.verdict = new ApprovalVerdict(builder.store, builder.binder, this.arguments, this.audit, builder.grantTtl);
	}

	/**
	 * Starts a middleware with the defaults: dangerous tools need approval, no provider
	 * (so gated calls are denied with "no approver is configured"), an in-memory store, a
	 * two-minute timeout.
	 * @return a builder
	 */
	public static Builder builder() {
		return new Builder();
	}

	/**
	 * Gates the calls of a tool that needs approval; tools without a policy never get
	 * here and stay out of the chain.
	 */
	@Override
	protected ToolHandler wrap(ToolDescriptor tool, ApprovalPolicy policy, ToolHandler next) {
		return (invocation) -> handle(invocation, next);
	}

	/**
	 * The store of requests, grants and the audit trail.
	 * @return the store
	 */
	public ApprovalStore store() {
		return this.store;
	}

	/**
	 * How long a call waits for a decision.
	 * @return the timeout
	 */
	public Duration timeout() {
		return this.wait.timeout();
	}

	/**
	 * The shape of arguments that approvals show and bind to.
	 * @return the arguments view
	 */
	ApprovalArguments arguments() {
		return this.arguments;
	}

	private @Nullable Object handle(ToolInvocation invocation, ToolHandler next) throws Exception {
		Instant now = clock().instant();
		String hash = this.arguments.hash(invocation.arguments());
		ApprovalGate.Passage passage = this.gate.check(invocation, hash, now);
		if (passage.outcome() == ApprovalOutcome.GRANTED) {
			ToolCall.current().approval(null, passage.decidedBy());
			this.audit.record(invocation, hash, now, passage.decidedBy(), ApprovalOutcome.GRANTED, null);
			return next.handle(invocation);
		}
		if (passage.outcome() == ApprovalOutcome.REPEATED_DENIAL) {
			this.audit.record(invocation, hash, now, passage.decidedBy(), ApprovalOutcome.REPEATED_DENIAL,
					passage.reason());
			throw ApprovalVerdict.deny(invocation, ApprovalOutcome.REPEATED_DENIAL, "the same call was denied by "
					+ passage.decidedBy() + " earlier in this session" + ApprovalVerdict.because(passage.reason()));
		}
		CallResumption resumption = invocation.attribute(CallResumption.ATTRIBUTE);
		ApprovalRequest request = (resumption != null)
				? this.wait.resumed(resumption.carried(CARRIED_REQUEST), invocation, hash) : null;
		boolean resumed = request != null;
		if (request == null) {
			request = this.wait.request(invocation, hash, now);
		}
		if (resumption != null) {
			resumption.carry(CARRIED_REQUEST, request.id());
		}
		ToolCall.current().approval(request.id(), null);
		ProgressTarget progress = invocation.attribute(ProgressTarget.ATTRIBUTE);
		ProgressTarget.Reporter waiting = (progress != null) ? progress.reporter() : null;
		ApprovalDecision decision = this.wait.await(request, invocation, waiting, resumption, resumed);
		// The tool's own progress goes on from the wait's
		ToolInvocation continued = (waiting != null)
				? invocation.withAttribute(ProgressTarget.ATTRIBUTE, waiting.continuation()) : invocation;
		if (resumption != null && ApprovalVerdict.approves(decision)) {
			if (resumed && request.id().equals(resumption.carried(CARRIED_APPLIED))) {
				// Applied and recorded by an earlier round, whose tool then asked its
				// client
				return this.verdict.applyAgain(decision, request, continued, next);
			}
			resumption.carry(CARRIED_APPLIED, request.id());
		}
		return this.verdict.apply(decision, request, continued, next, clock().instant());
	}

	/**
	 * Ends the wait of every call of this instance that is waiting for a decision: each
	 * is denied as {@linkplain ApprovalOutcome#ABANDONED abandoned}, with the reason
	 * given, recorded in the audit trail like any other decision. Fail-closed: no waiting
	 * call is ever approved this way. Call it when the application stops, so that no call
	 * waiting for a person holds the shutdown up (the Spring auto-configuration does).
	 * <pre>{@code
	 * approvalMiddleware.abandonWaiting("the application is shutting down");
	 * }</pre>
	 * @param reason why the calls stop waiting, for the model and the audit trail
	 * @return how many waiting calls were ended
	 */
	public int abandonWaiting(String reason) {
		return this.wait.abandonWaiting(reason);
	}

	/**
	 * Builds an {@link ApprovalMiddleware}.
	 */
	public static final class Builder extends BuiltInMiddleware.Builder<ApprovalPolicy, Builder> {

		private ApprovalProvider provider = NoApproverProvider.INSTANCE;

		private ApprovalStore store = new InMemoryApprovalStore();

		private ArgumentsBinder binder = ArgumentsBinder.NONE;

		private Duration timeout = DEFAULT_TIMEOUT;

		private Duration grantTtl = DEFAULT_GRANT_TTL;

		private Duration denyRepeatWindow = DEFAULT_DENY_REPEAT_WINDOW;

		private final List<ApprovalAuditListener> listeners = new ArrayList<>();

		/**
		 * Starts with which tools need approval decided by {@link ApprovalRules} with
		 * {@link ApprovalRules.Mode#DANGEROUS} ({@link #policies policies(fn)} decides
		 * otherwise, a {@code null} policy meaning no approval) and order
		 * {@link BuiltInOrder#APPROVAL} ({@link #order order(int)}).
		 */
		private Builder() {
			super(ApprovalRules.of(ApprovalRules.Mode.DANGEROUS, List.of(), List.of()), BuiltInOrder.APPROVAL);
		}

		/**
		 * Sets who is asked; a {@link CompositeApprovalProvider} picks the first that
		 * supports the call.
		 * @param provider the provider
		 * @return this builder
		 */
		public Builder provider(ApprovalProvider provider) {
			this.provider = Objects.requireNonNull(provider, "provider");
			return this;
		}

		/**
		 * Sets where requests, grants and the audit trail live (default in memory).
		 * @param store the store
		 * @return this builder
		 */
		public Builder store(ApprovalStore store) {
			this.store = Objects.requireNonNull(store, "store");
			return this;
		}

		/**
		 * Sets how arguments changed by an approver are bound and validated (default:
		 * such changes are refused).
		 * @param binder the binder
		 * @return this builder
		 */
		public Builder argumentsBinder(ArgumentsBinder binder) {
			this.binder = Objects.requireNonNull(binder, "binder");
			return this;
		}

		/**
		 * Sets how long a call waits for a decision before it is denied.
		 * @param timeout a positive duration
		 * @return this builder
		 */
		public Builder timeout(Duration timeout) {
			this.timeout = positive("timeout", timeout);
			return this;
		}

		/**
		 * Sets how long an approval for the session lasts.
		 * @param grantTtl a positive duration
		 * @return this builder
		 */
		public Builder grantTtl(Duration grantTtl) {
			this.grantTtl = positive("grantTtl", grantTtl);
			return this;
		}

		/**
		 * Sets how long a denied call is denied again without asking; zero turns this
		 * off.
		 * @param denyRepeatWindow a duration, not negative
		 * @return this builder
		 */
		public Builder denyRepeatWindow(Duration denyRepeatWindow) {
			Objects.requireNonNull(denyRepeatWindow, "denyRepeatWindow");
			if (denyRepeatWindow.isNegative()) {
				throw new IllegalArgumentException("denyRepeatWindow must not be negative, was " + denyRepeatWindow);
			}
			this.denyRepeatWindow = denyRepeatWindow;
			return this;
		}

		/**
		 * Adds a listener told about every outcome.
		 * @param listener the listener
		 * @return this builder
		 */
		public Builder auditListener(ApprovalAuditListener listener) {
			this.listeners.add(Objects.requireNonNull(listener, "listener"));
			return this;
		}

		/**
		 * Builds the middleware.
		 * @return the middleware
		 */
		@Override
		public ApprovalMiddleware build() {
			return new ApprovalMiddleware(this);
		}

		private static Duration positive(String name, Duration value) {
			Objects.requireNonNull(value, name);
			if (value.isNegative() || value.isZero()) {
				throw new IllegalArgumentException(name + " must be positive, was " + value);
			}
			return value;
		}

	}

}
