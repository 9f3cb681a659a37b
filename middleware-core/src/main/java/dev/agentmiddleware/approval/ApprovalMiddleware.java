package dev.agentmiddleware.approval;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;

import dev.agentmiddleware.chain.BuiltInOrder;
import dev.agentmiddleware.chain.OrderedMiddleware;
import dev.agentmiddleware.metrics.MiddlewareEvent;
import dev.agentmiddleware.metrics.MiddlewareMetrics;
import dev.agentmiddleware.redaction.SecretRedactor;
import dev.agentmiddleware.tool.DurationText;
import dev.agentmiddleware.tool.ToolDescriptor;
import dev.agentmiddleware.tool.ToolHandler;
import dev.agentmiddleware.tool.SessionFingerprint;
import dev.agentmiddleware.tool.ToolInvocation;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Human approval of tool calls (seed {@code WithApproval}). Applies only to the tools its {@link ApprovalRules}
 * gate; for every other tool it returns {@code next} when the pipeline is built and costs nothing per call.
 *
 * <p>Per call of a gated tool:
 * <ol>
 * <li>a {@link SessionGrant} of the caller's session that covers the call lets it through without asking;</li>
 * <li>a call a person denied earlier in the same session, with the same arguments, within the deny-repeat window,
 * is denied again at once;</li>
 * <li>otherwise an {@link ApprovalRequest} (redacted arguments, arguments hash, session, principal, summary) is
 * saved in the {@link ApprovalStore} and given to the {@link ApprovalProvider}, and the call waits for the
 * decision, at most until the timeout. The decision applies to this call only.</li>
 * </ol>
 * Fail-closed: a timeout, no approver, or a provider that fails deny the call with an
 * {@link ApprovalDeniedException} that says which. Approved with changed arguments, the new arguments are bound
 * and validated by the {@link ArgumentsBinder} like a new call, for the same tool. Every outcome is written to the
 * audit trail and counted. Parallel calls wait and are decided independently.
 * <pre>{@code
 * ApprovalMiddleware approval = ApprovalMiddleware.builder()
 *     .rules(ApprovalRules.of(ApprovalPolicy.DANGEROUS, Set.of(), Set.of("write_file")))
 *     .provider(new CompositeApprovalProvider(List.of(new ApprovalQueueProvider())))
 *     .timeout(Duration.ofMinutes(2))
 *     .build();
 * }</pre>
 */
public final class ApprovalMiddleware implements OrderedMiddleware {

	/** The name shown in chains, observer records and denials. */
	public static final String NAME = "approval";

	/** The default time a call waits for a decision: two minutes. */
	public static final Duration DEFAULT_TIMEOUT = Duration.ofMinutes(2);

	/** The default life of a session grant: one hour. */
	public static final Duration DEFAULT_GRANT_TTL = Duration.ofHours(1);

	/** The default window in which a denied call is denied again without asking: five minutes. */
	public static final Duration DEFAULT_DENY_REPEAT_WINDOW = Duration.ofMinutes(5);

	private static final Logger logger = LoggerFactory.getLogger(ApprovalMiddleware.class);

	private static final int MAX_REASON_LENGTH = 200;

	private static final int MAX_SUMMARY_LENGTH = 200;

	private final ApprovalRules rules;

	private final ApprovalProvider provider;

	private final ApprovalStore store;

	private final ArgumentsBinder binder;

	private final ApprovalArguments arguments;

	private final SecretRedactor redactor;

	private final Clock clock;

	private final Duration timeout;

	private final Duration grantTtl;

	private final Duration denyRepeatWindow;

	private final MiddlewareMetrics metrics;

	private final List<ApprovalAuditListener> listeners;

	private final int order;

	// The requests calls of this instance are waiting on, so that stopping the application can end the waits
	private final Set<String> waiting = ConcurrentHashMap.newKeySet();

	private ApprovalMiddleware(Builder builder) {
		this.rules = builder.rules;
		this.provider = builder.provider;
		this.store = builder.store;
		this.binder = builder.binder;
		this.redactor = builder.redactor;
		this.arguments = new ApprovalArguments(builder.redactor);
		this.clock = builder.clock;
		this.timeout = builder.timeout;
		this.grantTtl = builder.grantTtl;
		this.denyRepeatWindow = builder.denyRepeatWindow;
		this.metrics = builder.metrics;
		this.listeners = List.copyOf(builder.listeners);
		this.order = builder.order;
	}

	/**
	 * Starts a middleware with the defaults: policy {@code DANGEROUS}, no provider (so gated calls are denied with
	 * "no approver is configured"), an in-memory store, a two-minute timeout.
	 * @return a builder
	 */
	public static Builder builder() {
		return new Builder();
	}

	@Override
	public String name() {
		return NAME;
	}

	@Override
	public int order() {
		return this.order;
	}

	@Override
	public ToolHandler wrap(ToolDescriptor tool, ToolHandler next) {
		if (!this.rules.requiresApproval(tool)) {
			return next;
		}
		return (invocation) -> handle(invocation, next);
	}

	/**
	 * The rules that decide which tools are gated.
	 * @return the rules
	 */
	public ApprovalRules rules() {
		return this.rules;
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
		return this.timeout;
	}

	/**
	 * The shape of arguments that approvals show and bind to.
	 * @return the arguments view
	 */
	ApprovalArguments arguments() {
		return this.arguments;
	}

	private @Nullable Object handle(ToolInvocation invocation, ToolHandler next) throws Exception {
		String toolName = invocation.toolName();
		Instant now = this.clock.instant();
		String hash = this.arguments.hash(invocation.arguments());
		String sessionId = invocation.sessionId();
		if (sessionId != null) {
			Optional<SessionGrant> grant = this.store.findGrant(sessionId, toolName, hash, now);
			if (grant.isPresent()) {
				record(invocation.callId(), invocation, hash, now, grant.get().grantedBy(), ApprovalOutcome.GRANTED,
						null);
				return next.handle(invocation);
			}
			if (!this.denyRepeatWindow.isZero()) {
				Optional<DeniedCall> denial = this.store.findDenial(sessionId, toolName, hash,
						now.minus(this.denyRepeatWindow));
				if (denial.isPresent()) {
					DeniedCall denied = denial.get();
					record(invocation.callId(), invocation, hash, now, denied.deniedBy(),
							ApprovalOutcome.REPEATED_DENIAL, denied.reason());
					throw deny(invocation, ApprovalOutcome.REPEATED_DENIAL, "the same call was denied by "
							+ denied.deniedBy() + " earlier in this session" + because(denied.reason()));
				}
			}
		}
		ApprovalRequest request = request(invocation, hash, now);
		ApprovalDecision decision = await(request, invocation);
		return apply(decision, request, invocation, next);
	}

	private ApprovalRequest request(ToolInvocation invocation, String hash, Instant now) {
		String redacted = this.arguments.redactedJson(invocation.arguments());
		String summary = invocation.toolName() + " " + redacted;
		if (summary.length() > MAX_SUMMARY_LENGTH) {
			summary = summary.substring(0, MAX_SUMMARY_LENGTH - 1) + "…";
		}
		return new ApprovalRequest(UUID.randomUUID().toString(), invocation.toolName(), invocation.tool().safety(),
				redacted, hash, invocation.sessionId(), invocation.principalName(), summary, now, now.plus(this.timeout));
	}

	private ApprovalDecision await(ApprovalRequest request, ToolInvocation invocation) {
		this.store.add(request);
		this.waiting.add(request.id());
		try {
			return awaitAdded(request, invocation);
		}
		finally {
			this.waiting.remove(request.id());
		}
	}

	/**
	 * Ends the wait of every call of this instance that is waiting for a decision: each is denied as
	 * {@linkplain ApprovalOutcome#ABANDONED abandoned}, with the reason given, recorded in the audit trail like any
	 * other decision. Fail-closed: no waiting call is ever approved this way. Call it when the application stops, so
	 * that no call waiting for a person holds the shutdown up (the Spring auto-configuration does).
	 * <pre>{@code
	 * approvalMiddleware.abandonWaiting("the application is shutting down");
	 * }</pre>
	 * @param reason why the calls stop waiting, for the model and the audit trail
	 * @return how many waiting calls were ended
	 */
	public int abandonWaiting(String reason) {
		Objects.requireNonNull(reason, "reason");
		Instant now = this.clock.instant();
		int ended = 0;
		for (String id : List.copyOf(this.waiting)) {
			this.store.decide(id, ApprovalDecision.system(ApprovalOutcome.ABANDONED, reason), now);
			ended++;
		}
		return ended;
	}

	private ApprovalDecision awaitAdded(ApprovalRequest request, ToolInvocation invocation) {
		this.metrics.count(MiddlewareEvent.APPROVAL_REQUESTED, request.toolName());
		ApprovalProvider chosen = (this.provider instanceof CompositeApprovalProvider composite)
				? composite.select(invocation)
				: (this.provider.supports(invocation) ? this.provider : NoApproverProvider.INSTANCE);
		logger.info("Approval {} requested from '{}' for call {} of tool '{}' (session {}), expires at {}",
				request.id(), chosen.name(), invocation.callId(), request.toolName(),
				SessionFingerprint.of(request.sessionId()),
				request.expiresAt());
		CompletableFuture<ApprovalDecision> asked = null;
		try {
			asked = chosen.requestApproval(request, invocation).toCompletableFuture();
			asked.whenComplete((decision, failure) -> {
				if (failure instanceof java.util.concurrent.CancellationException) {
					return; // the call stopped waiting and cancelled the question itself
				}
				ApprovalDecision taken = decision;
				if (failure != null || decision == null) {
					providerFailed(chosen, request, failure);
					taken = ApprovalDecision.system(ApprovalOutcome.PROVIDER_FAILED, null);
				}
				this.store.decide(request.id(), taken, this.clock.instant());
			});
		}
		catch (RuntimeException ex) {
			providerFailed(chosen, request, ex);
			this.store.decide(request.id(), ApprovalDecision.system(ApprovalOutcome.PROVIDER_FAILED, null),
					this.clock.instant());
		}
		ApprovalDecision fallback = ApprovalDecision.system(ApprovalOutcome.TIMED_OUT, null);
		try {
			Optional<ApprovalDecision> decided = this.store.awaitDecision(request.id(), request.expiresAt(),
					this.clock);
			if (decided.isPresent()) {
				fallback = decided.get();
			}
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			fallback = ApprovalDecision.system(ApprovalOutcome.ABANDONED, "the waiting call was interrupted");
		}
		finally {
			if (asked != null && !asked.isDone()) {
				asked.cancel(true);
			}
		}
		ApprovalDecision decision = this.store.close(request.id(), fallback, this.clock.instant());
		if (decision.outcome() == ApprovalOutcome.PROVIDER_FAILED) {
			return new ApprovalDecision(ApprovalOutcome.PROVIDER_FAILED, chosen.name(), null, null, null);
		}
		return decision;
	}

	private @Nullable Object apply(ApprovalDecision decision, ApprovalRequest request, ToolInvocation invocation,
			ToolHandler next) throws Exception {
		String toolName = request.toolName();
		String reason = sanitized(decision.reason());
		Instant now = this.clock.instant();
		switch (decision.outcome()) {
			case APPROVED -> {
				record(request, decision, null);
				return next.handle(invocation);
			}
			case APPROVED_FOR_SESSION -> {
				String sessionId = request.sessionId();
				if (sessionId != null) {
					String scoped = (decision.grantScope() == GrantScope.TOOL) ? null : request.argumentsHash();
					this.store.grant(new SessionGrant(sessionId, toolName, scoped, decision.decidedBy(),
							now.plus(this.grantTtl)));
				}
				record(request, decision, null);
				return next.handle(invocation);
			}
			case APPROVED_WITH_CHANGES -> {
				Map<String, @Nullable Object> changed;
				try {
					changed = this.binder.bind(invocation.tool(), Objects.requireNonNull(decision.changedArguments()));
				}
				catch (RuntimeException ex) {
					String refused = "the arguments " + decision.decidedBy() + " changed were refused: "
							+ sanitized(ex.getMessage());
					record(request, ApprovalDecision.deny(decision.decidedBy(), refused), refused);
					throw deny(invocation, ApprovalOutcome.DENIED, refused);
				}
				record(request, decision, null);
				return next.handle(invocation.withArguments(changed));
			}
			case DENIED -> {
				String sessionId = request.sessionId();
				if (sessionId != null) {
					this.store.recordDenial(new DeniedCall(sessionId, toolName, request.argumentsHash(),
							decision.decidedBy(), reason, now));
				}
				record(request, decision, reason);
				throw deny(invocation, ApprovalOutcome.DENIED, decision.decidedBy() + " denied it" + because(reason));
			}
			case TIMED_OUT -> {
				record(request, decision, null);
				throw deny(invocation, ApprovalOutcome.TIMED_OUT,
						"nobody approved it within " + DurationText.of(this.timeout));
			}
			case NO_APPROVER -> {
				record(request, decision, null);
				throw deny(invocation, ApprovalOutcome.NO_APPROVER,
						"it needs a human's approval and no approver is configured");
			}
			case PROVIDER_FAILED -> {
				record(request, decision, null);
				throw deny(invocation, ApprovalOutcome.PROVIDER_FAILED,
						"the approval provider '" + decision.decidedBy() + "' failed, so it was not approved");
			}
			case ABANDONED -> {
				record(request, decision, reason);
				throw deny(invocation, ApprovalOutcome.ABANDONED, "it was still waiting for approval when "
						+ ((reason != null) ? reason : "the wait was abandoned") + ", so it was not approved");
			}
			default -> {
				record(request, decision, reason);
				throw deny(invocation, decision.outcome(), "the approval request ended as "
						+ decision.outcome().tagValue() + " and was not approved");
			}
		}
	}

	private ApprovalDeniedException deny(ToolInvocation invocation, ApprovalOutcome outcome, String reason) {
		// The thrown ToolDeniedException (naming this middleware) is the decision: observers see DENIED by "approval".
		return new ApprovalDeniedException(invocation.toolName(), NAME, outcome, reason);
	}

	private void record(ApprovalRequest request, ApprovalDecision decision, @Nullable String reason) {
		ApprovalAuditRecord record = new ApprovalAuditRecord(request.id(), request.toolName(),
				request.argumentsHash(), request.sessionId(), request.principal(), decision.decidedBy(),
				decision.outcome(), reason, request.createdAt(), this.clock.instant());
		publish(record);
	}

	private void record(String id, ToolInvocation invocation, String hash, Instant at, String decidedBy,
			ApprovalOutcome outcome, @Nullable String reason) {
		publish(new ApprovalAuditRecord(id, invocation.toolName(), hash, invocation.sessionId(),
				invocation.principalName(), decidedBy, outcome, reason, at, at));
	}

	private void publish(ApprovalAuditRecord record) {
		this.store.audit(record);
		this.metrics.count(event(record.outcome()), record.toolName());
		logger.info("Approval {} of tool '{}' (session {}): {} by {}", record.requestId(), record.toolName(),
				SessionFingerprint.of(record.sessionId()), record.outcome().tagValue(), record.decidedBy());
		for (ApprovalAuditListener listener : this.listeners) {
			try {
				listener.onAudit(record);
			}
			catch (RuntimeException ex) {
				logger.warn("Approval audit listener {} failed: {}", listener.getClass().getName(), ex.toString());
			}
		}
	}

	private static MiddlewareEvent event(ApprovalOutcome outcome) {
		if (outcome == ApprovalOutcome.TIMED_OUT) {
			return MiddlewareEvent.APPROVAL_TIMED_OUT;
		}
		return outcome.approved() ? MiddlewareEvent.APPROVAL_APPROVED : MiddlewareEvent.APPROVAL_DENIED;
	}

	private void providerFailed(ApprovalProvider provider, ApprovalRequest request, @Nullable Throwable failure) {
		Throwable cause = (failure instanceof java.util.concurrent.CompletionException && failure.getCause() != null)
				? failure.getCause() : failure;
		logger.warn("Approval provider '{}' failed on request {} of tool '{}'; the call is denied: {}",
				provider.name(), request.id(), request.toolName(),
				(cause != null) ? this.redactor.redactText(cause.toString()) : "it returned no decision");
	}

	private static String because(@Nullable String reason) {
		return (reason != null && !reason.isBlank()) ? ": " + reason : "";
	}

	private @Nullable String sanitized(@Nullable String text) {
		if (text == null || text.isBlank()) {
			return null;
		}
		String line = text.strip();
		int end = line.indexOf('\n');
		if (end >= 0) {
			line = line.substring(0, end).strip();
		}
		line = this.redactor.redactText(line);
		return (line.length() <= MAX_REASON_LENGTH) ? line : line.substring(0, MAX_REASON_LENGTH - 1) + "…";
	}

	/**
	 * Builds an {@link ApprovalMiddleware}.
	 */
	public static final class Builder {

		private ApprovalRules rules = ApprovalRules.of(ApprovalPolicy.DANGEROUS, List.of(), List.of());

		private ApprovalProvider provider = NoApproverProvider.INSTANCE;

		private ApprovalStore store = new InMemoryApprovalStore();

		private ArgumentsBinder binder = ArgumentsBinder.NONE;

		private SecretRedactor redactor = SecretRedactor.withDefaults();

		private Clock clock = Clock.systemUTC();

		private Duration timeout = DEFAULT_TIMEOUT;

		private Duration grantTtl = DEFAULT_GRANT_TTL;

		private Duration denyRepeatWindow = DEFAULT_DENY_REPEAT_WINDOW;

		private MiddlewareMetrics metrics = MiddlewareMetrics.NONE;

		private final List<ApprovalAuditListener> listeners = new ArrayList<>();

		private int order = BuiltInOrder.APPROVAL;

		private Builder() {
		}

		/**
		 * Sets which tools need approval.
		 * @param rules the rules
		 * @return this builder
		 */
		public Builder rules(ApprovalRules rules) {
			this.rules = Objects.requireNonNull(rules, "rules");
			return this;
		}

		/**
		 * Sets who is asked; a {@link CompositeApprovalProvider} picks the first that supports the call.
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
		 * Sets how arguments changed by an approver are bound and validated (default: such changes are refused).
		 * @param binder the binder
		 * @return this builder
		 */
		public Builder argumentsBinder(ArgumentsBinder binder) {
			this.binder = Objects.requireNonNull(binder, "binder");
			return this;
		}

		/**
		 * Sets how secrets in arguments and reasons are hidden.
		 * @param redactor the redactor
		 * @return this builder
		 */
		public Builder redactor(SecretRedactor redactor) {
			this.redactor = Objects.requireNonNull(redactor, "redactor");
			return this;
		}

		/**
		 * Sets the clock for request expiry, grant life and the deny-repeat window.
		 * @param clock the clock
		 * @return this builder
		 */
		public Builder clock(Clock clock) {
			this.clock = Objects.requireNonNull(clock, "clock");
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
		 * Sets how long a denied call is denied again without asking; zero turns this off.
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
		 * Sets where requests and outcomes are counted.
		 * @param metrics the metrics
		 * @return this builder
		 */
		public Builder metrics(MiddlewareMetrics metrics) {
			this.metrics = Objects.requireNonNull(metrics, "metrics");
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
		 * Sets the position in the chain (default {@link BuiltInOrder#APPROVAL}).
		 * @param order the order
		 * @return this builder
		 */
		public Builder order(int order) {
			this.order = order;
			return this;
		}

		/**
		 * Builds the middleware.
		 * @return the middleware
		 */
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
