package dev.agentmiddleware.approval;

import dev.agentmiddleware.approval.ApprovalStore.DeniedCall;

import dev.agentmiddleware.approval.ApprovalAuditListener.ApprovalOutcome;

import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

import dev.agentmiddleware.tool.ToolInvocation;
import org.jspecify.annotations.Nullable;

/**
 * The gate of {@link ApprovalMiddleware}: whether a call needs a person's decision at
 * all. A tool its policy function gives no {@link ApprovalPolicy} never reaches it (the
 * middleware leaves it out of the chain); a gated call is let through by a
 * {@link SessionGrant} that covers it, denied again at once when a person denied the same
 * call (same session, tool and arguments hash) within the deny-repeat window, and
 * otherwise must be asked about. Thread-safe.
 */
final class ApprovalGate {

	private final ApprovalStore store;

	private final Duration denyRepeatWindow;

	ApprovalGate(ApprovalStore store, Duration denyRepeatWindow) {
		this.store = store;
		this.denyRepeatWindow = denyRepeatWindow;
	}

	/**
	 * What the gate knows of one call without asking anyone.
	 * @param invocation the call
	 * @param hash the call's arguments hash
	 * @param now the time of the call
	 * @return a grant or a remembered denial that decides the call, or
	 * {@link Passage#ASK}
	 */
	Passage check(ToolInvocation invocation, String hash, Instant now) {
		String sessionId = invocation.sessionId();
		if (sessionId == null) {
			return Passage.ASK;
		}
		Optional<SessionGrant> grant = this.store.findGrant(sessionId, invocation.toolName(), hash, now);
		if (grant.isPresent()) {
			return new Passage(ApprovalOutcome.GRANTED, grant.get().grantedBy(), null);
		}
		if (!this.denyRepeatWindow.isZero()) {
			Optional<DeniedCall> denial = this.store.findDenial(sessionId, invocation.toolName(), hash,
					now.minus(this.denyRepeatWindow));
			if (denial.isPresent()) {
				return new Passage(ApprovalOutcome.REPEATED_DENIAL, denial.get().deniedBy(), denial.get().reason());
			}
		}
		return Passage.ASK;
	}

	/**
	 * What the gate decided: {@code outcome} {@code null} means a person must be asked.
	 */
	record Passage(@Nullable ApprovalOutcome outcome, String decidedBy, @Nullable String reason) {

		static final Passage ASK = new Passage(null, "", null);

	}

}
