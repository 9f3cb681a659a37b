package dev.agentmiddleware.approval;

import dev.agentmiddleware.approval.ApprovalProvider.CompositeApprovalProvider;

import dev.agentmiddleware.approval.ApprovalAuditListener.ApprovalOutcome;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;

import dev.agentmiddleware.chain.CallCancellation;
import dev.agentmiddleware.chain.ToolCall;
import dev.agentmiddleware.redaction.SecretRedactor;
import dev.agentmiddleware.tool.ToolProgress.ProgressTarget;
import dev.agentmiddleware.tool.SessionFingerprint;
import dev.agentmiddleware.tool.ToolInvocation;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The wait of {@link ApprovalMiddleware}: saves an {@link ApprovalRequest} in the
 * {@link ApprovalStore}, gives it to the {@link ApprovalProvider} that supports the call,
 * and waits for the decision at most until the timeout. Fail-closed: a timeout, a
 * provider that fails or returns nothing, an interrupted or abandoned wait all end as a
 * system decision that does not approve. A cancelled call ({@link CallCancellation}) or
 * an interrupted waiting thread withdraws its request: decided
 * {@link ApprovalOutcome#CANCELLED}, it leaves the pending requests at once. Thread-safe;
 * parallel calls wait and are decided independently.
 */
final class ApprovalWait {

	private static final Logger logger = LoggerFactory.getLogger(ApprovalMiddleware.class);

	private final ApprovalProvider provider;

	private final ApprovalStore store;

	private final ApprovalArguments arguments;

	private final SecretRedactor redactor;

	private final ApprovalAudit audit;

	private final Clock clock;

	private final Duration timeout;

	// The requests calls of this instance are waiting on, so that stopping the
	// application can end the waits
	private final Set<String> waiting = ConcurrentHashMap.newKeySet();

	ApprovalWait(ApprovalProvider provider, ApprovalStore store, ApprovalArguments arguments, SecretRedactor redactor,
			ApprovalAudit audit, Clock clock, Duration timeout) {
		this.provider = provider;
		this.store = store;
		this.arguments = arguments;
		this.redactor = redactor;
		this.audit = audit;
		this.clock = clock;
		this.timeout = timeout;
	}

	Duration timeout() {
		return this.timeout;
	}

	/**
	 * The request a person is asked about: redacted arguments, their hash, session,
	 * principal and a short summary.
	 */
	ApprovalRequest request(ToolInvocation invocation, String hash, Instant now) {
		String redacted = this.arguments.redactedJson(invocation.arguments());
		return new ApprovalRequest(UUID.randomUUID().toString(), invocation.toolName(), invocation.tool().safety(),
				redacted, hash, invocation.sessionId(), invocation.principalName(),
				this.arguments.summary(invocation.toolName(), redacted), now, now.plus(this.timeout));
	}

	/**
	 * Asks about the request and waits for its decision, telling the caller of the call
	 * what it waits for through {@code progress}, if the caller asked to be told.
	 * @return the decision; a system decision that does not approve when nobody decided
	 * in time or asking failed
	 */
	ApprovalDecision await(ApprovalRequest request, ToolInvocation invocation,
			ProgressTarget.@Nullable Reporter progress) {
		CallCancellation cancellation = ToolCall.current().cancellation();
		if (cancellation.isCancelled()) {
			return cancelled(cancellation); // nobody is asked about a call its caller
											// gave up on
		}
		this.store.add(request);
		this.waiting.add(request.id());
		try {
			return awaitAdded(request, invocation, progress);
		}
		finally {
			this.waiting.remove(request.id());
		}
	}

	/**
	 * Ends every wait of this instance as abandoned (see
	 * {@link ApprovalMiddleware#abandonWaiting}).
	 */
	int abandonWaiting(String reason) {
		Objects.requireNonNull(reason, "reason");
		Instant now = this.clock.instant();
		int ended = 0;
		for (String id : List.copyOf(this.waiting)) {
			this.store.decide(id, ApprovalDecision.system(ApprovalOutcome.ABANDONED, reason), now);
			ended++;
		}
		return ended;
	}

	private ApprovalDecision awaitAdded(ApprovalRequest request, ToolInvocation invocation,
			ProgressTarget.@Nullable Reporter progress) {
		this.audit.requested(request);
		ApprovalProvider chosen = chosen(invocation);
		logger.info("Approval {} requested from '{}' for call {} of tool '{}' (session {}), expires at {}",
				request.id(), chosen.name(), invocation.callId(), request.toolName(),
				SessionFingerprint.of(request.sessionId()), request.expiresAt());
		CompletableFuture<ApprovalDecision> asked = ask(chosen, request, invocation);
		ApprovalDecision fallback = ApprovalDecision.system(ApprovalOutcome.TIMED_OUT, null);
		CallCancellation cancellation = ToolCall.current().cancellation();
		// A cancelled call withdraws its request, from the thread that cancels: the wait
		// wakes as for any decision
		try (CallCancellation.Registration withdrawal = cancellation.onCancel(() -> withdraw(request, cancellation))) {
			Optional<ApprovalDecision> decided = (progress != null)
					? ApprovalProgress.awaitDecision(this.store, request, this.clock, progress)
					: this.store.awaitDecision(request.id(), request.expiresAt(), this.clock);
			if (decided.isPresent()) {
				fallback = decided.get();
			}
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			// An interrupt of the waiting thread is its caller giving up: a cancellation
			fallback = ApprovalDecision.system(ApprovalOutcome.CANCELLED, "the waiting thread was interrupted");
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

	private void withdraw(ApprovalRequest request, CallCancellation cancellation) {
		this.store.decide(request.id(), cancelled(cancellation), this.clock.instant());
	}

	private static ApprovalDecision cancelled(CallCancellation cancellation) {
		String reason = cancellation.reason();
		return ApprovalDecision.system(ApprovalOutcome.CANCELLED,
				(reason != null) ? reason : "the caller cancelled the call");
	}

	private ApprovalProvider chosen(ToolInvocation invocation) {
		if (this.provider instanceof CompositeApprovalProvider composite) {
			return composite.select(invocation);
		}
		return this.provider.supports(invocation) ? this.provider : NoApproverProvider.INSTANCE;
	}

	private @Nullable CompletableFuture<ApprovalDecision> ask(ApprovalProvider chosen, ApprovalRequest request,
			ToolInvocation invocation) {
		try {
			CompletableFuture<ApprovalDecision> asked = chosen.requestApproval(request, invocation)
				.toCompletableFuture();
			asked.whenComplete((decision, failure) -> {
				if (failure instanceof CancellationException) {
					return; // the call stopped waiting and cancelled the question itself
				}
				ApprovalDecision taken = decision;
				if (failure != null || decision == null) {
					providerFailed(chosen, request, failure);
					taken = ApprovalDecision.system(ApprovalOutcome.PROVIDER_FAILED, null);
				}
				this.store.decide(request.id(), taken, this.clock.instant());
			});
			return asked;
		}
		catch (RuntimeException ex) {
			providerFailed(chosen, request, ex);
			this.store.decide(request.id(), ApprovalDecision.system(ApprovalOutcome.PROVIDER_FAILED, null),
					this.clock.instant());
			return null;
		}
	}

	private void providerFailed(ApprovalProvider provider, ApprovalRequest request, @Nullable Throwable failure) {
		Throwable cause = (failure instanceof CompletionException && failure.getCause() != null) ? failure.getCause()
				: failure;
		logger.warn("Approval provider '{}' failed on request {} of tool '{}'; the call is denied: {}", provider.name(),
				request.id(), request.toolName(),
				(cause != null) ? this.redactor.redactText(cause.toString()) : "it returned no decision");
	}

}
