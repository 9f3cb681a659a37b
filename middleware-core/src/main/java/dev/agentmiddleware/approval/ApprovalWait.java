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
import java.util.concurrent.atomic.AtomicReference;

import dev.agentmiddleware.chain.CallCancellation;
import dev.agentmiddleware.chain.ToolCall;
import dev.agentmiddleware.redaction.SecretRedactor;
import dev.agentmiddleware.tool.ToolProgress.ProgressTarget;
import dev.agentmiddleware.tool.CallResumption;
import dev.agentmiddleware.tool.SessionFingerprint;
import dev.agentmiddleware.tool.ToolInputRequiredException;
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
 *
 * <p>
 * A call served in rounds ({@link CallResumption}, MCP {@code 2026-07-28}) waits at most
 * the round's time: a request still pending then stays pending (not withdrawn, not
 * audited) and the round ends with a {@link ToolInputRequiredException} so that the
 * client retries; the retry continues with the same request ({@link #resumed}), asks its
 * provider again (whose answer may come with the retry) and waits again, until the
 * request expires. A {@link ToolInputRequiredException} from the provider (its question
 * goes to the client as an input request) ends the round the same way: it is the call's
 * outcome, never a provider failure.
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
	 * The request an earlier round of the call made, to continue with: only when the
	 * store has it and it is for the same tool, arguments and principal.
	 * @param id the id the earlier round carried, or {@code null}
	 * @return the request, or {@code null} to make a new one
	 */
	@Nullable ApprovalRequest resumed(@Nullable String id, ToolInvocation invocation, String hash) {
		if (id == null) {
			return null;
		}
		Optional<ApprovalRequest> found = this.store.find(id);
		if (found.isEmpty()) {
			logger.warn(
					"Approval {} carried by call {} of tool '{}' is not in the approval store; a new request is made",
					id, invocation.callId(), invocation.toolName());
			return null;
		}
		ApprovalRequest request = found.get();
		if (!request.toolName().equals(invocation.toolName()) || !request.argumentsHash().equals(hash)
				|| !Objects.equals(request.principal(), invocation.principalName())) {
			logger.warn(
					"Approval {} carried by call {} of tool '{}' is for another call (its tool, arguments or "
							+ "principal differ); a new request is made",
					id, invocation.callId(), invocation.toolName());
			return null;
		}
		return request;
	}

	/**
	 * Asks about the request and waits for its decision, telling the caller of the call
	 * what it waits for through {@code progress}, if the caller asked to be told.
	 * @return the decision; a system decision that does not approve when nobody decided
	 * in time or asking failed
	 */
	ApprovalDecision await(ApprovalRequest request, ToolInvocation invocation,
			ProgressTarget.@Nullable Reporter progress) {
		return await(request, invocation, progress, null, false);
	}

	/**
	 * Asks about the request and waits for its decision; on a call served in rounds, at
	 * most the round's time.
	 * @param resumption the rounds of the call, or {@code null} for a call served in one
	 * @param resumed whether the request is an earlier round's, already saved
	 * @return the decision; a system decision that does not approve when nobody decided
	 * in time or asking failed
	 * @throws ToolInputRequiredException when the round ends before the request is
	 * decided, or its provider asks the client
	 */
	ApprovalDecision await(ApprovalRequest request, ToolInvocation invocation,
			ProgressTarget.@Nullable Reporter progress, @Nullable CallResumption resumption, boolean resumed) {
		CallCancellation cancellation = ToolCall.current().cancellation();
		if (cancellation.isCancelled()) {
			if (resumed) {
				withdraw(request, cancellation);
			}
			return cancelled(cancellation); // nobody is asked about a call its caller
											// gave up on
		}
		if (!resumed) {
			this.store.add(request);
		}
		this.waiting.add(request.id());
		try {
			return awaitAdded(request, invocation, progress, resumption, resumed);
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
			ProgressTarget.@Nullable Reporter progress, @Nullable CallResumption resumption, boolean resumed) {
		ApprovalProvider chosen = chosen(invocation);
		if (resumed) {
			logger.info("Approval {} from '{}' continued by call {} of tool '{}', expires at {}", request.id(),
					chosen.name(), invocation.callId(), request.toolName(), request.expiresAt());
		}
		else {
			this.audit.requested(request);
			logger.info("Approval {} requested from '{}' for call {} of tool '{}' (session {}), expires at {}",
					request.id(), chosen.name(), invocation.callId(), request.toolName(),
					SessionFingerprint.of(request.sessionId()), request.expiresAt());
		}
		ApprovalDecision fallback = ApprovalDecision.system(ApprovalOutcome.TIMED_OUT, null);
		// An earlier round's request decided since (console, REST, link, the client's
		// user) is applied as decided, without asking again
		Optional<ApprovalDecision> earlier = resumed ? decided(request) : Optional.empty();
		if (earlier.isPresent()) {
			return this.store.close(request.id(), earlier.get(), this.clock.instant());
		}
		if (resumed && request.isExpired(this.clock.instant())) {
			// Nobody decided it in time: denied as timed out, without asking again
			return this.store.close(request.id(), fallback, this.clock.instant());
		}
		AtomicReference<@Nullable ToolInputRequiredException> inputRequired = new AtomicReference<>();
		CompletableFuture<ApprovalDecision> asked = ask(chosen, request, invocation, inputRequired);
		ToolInputRequiredException asking = inputRequired.get();
		if (asking != null) {
			// The provider's question goes to the client: the round ends, the request
			// stays pending
			if (asked != null) {
				asked.cancel(true);
			}
			this.store.keepPending(request.id(), request.expiresAt());
			throw asking;
		}
		Instant deadline = request.expiresAt();
		if (resumption != null) {
			Instant roundEnd = this.clock.instant().plus(resumption.roundTime());
			deadline = roundEnd.isBefore(deadline) ? roundEnd : deadline;
		}
		boolean roundOver = false;
		CallCancellation cancellation = ToolCall.current().cancellation();
		// A cancelled call withdraws its request, from the thread that cancels: the wait
		// wakes as for any decision
		try (CallCancellation.Registration withdrawal = cancellation.onCancel(() -> withdraw(request, cancellation))) {
			Optional<ApprovalDecision> decided = (progress != null)
					? ApprovalProgress.awaitDecision(this.store, request, this.clock, progress, deadline)
					: this.store.awaitDecision(request.id(), deadline, this.clock);
			if (decided.isPresent()) {
				fallback = decided.get();
			}
			else {
				roundOver = resumption != null && !request.isExpired(this.clock.instant());
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
		if (roundOver) {
			// Still pending, neither withdrawn nor audited: the client retries, and the
			// retry waits again
			this.store.keepPending(request.id(), request.expiresAt());
			asking = inputRequired.get();
			throw (asking != null) ? asking : new ToolInputRequiredException(request.toolName(), "approval");
		}
		ApprovalDecision decision = this.store.close(request.id(), fallback, this.clock.instant());
		if (decision.outcome() == ApprovalOutcome.PROVIDER_FAILED) {
			return new ApprovalDecision(ApprovalOutcome.PROVIDER_FAILED, chosen.name(), null, null, null);
		}
		return decision;
	}

	// The decision of a request, if it has one
	private Optional<ApprovalDecision> decided(ApprovalRequest request) {
		try {
			return this.store.awaitDecision(request.id(), this.clock.instant(), this.clock);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			return Optional.empty();
		}
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
			ToolInvocation invocation, AtomicReference<@Nullable ToolInputRequiredException> inputRequired) {
		try {
			CompletableFuture<ApprovalDecision> asked = chosen.requestApproval(request, invocation)
				.toCompletableFuture();
			asked.whenComplete((decision, failure) -> {
				if (failure instanceof CancellationException) {
					return; // the call stopped waiting and cancelled the question itself
				}
				if (inputRequired(failure) instanceof ToolInputRequiredException asking) {
					// Not a failure: the question goes to the client, the request stays
					// pending
					inputRequired.set(asking);
					return;
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
		catch (ToolInputRequiredException ex) {
			inputRequired.set(ex);
			return null;
		}
		catch (RuntimeException ex) {
			providerFailed(chosen, request, ex);
			this.store.decide(request.id(), ApprovalDecision.system(ApprovalOutcome.PROVIDER_FAILED, null),
					this.clock.instant());
			return null;
		}
	}

	private static @Nullable Throwable inputRequired(@Nullable Throwable failure) {
		Throwable cause = (failure instanceof CompletionException && failure.getCause() != null) ? failure.getCause()
				: failure;
		return (cause instanceof ToolInputRequiredException) ? cause : null;
	}

	private void providerFailed(ApprovalProvider provider, ApprovalRequest request, @Nullable Throwable failure) {
		Throwable cause = (failure instanceof CompletionException && failure.getCause() != null) ? failure.getCause()
				: failure;
		logger.warn("Approval provider '{}' failed on request {} of tool '{}'; the call is denied: {}", provider.name(),
				request.id(), request.toolName(),
				(cause != null) ? this.redactor.redactText(cause.toString()) : "it returned no decision");
	}

}
