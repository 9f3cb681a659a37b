package dev.agentmiddleware.autoconfigure.approval;

import java.time.Clock;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.agentmiddleware.approval.ApprovalMiddleware;
import dev.agentmiddleware.autoconfigure.actuate.AgentMiddlewareEndpointContributor.PolicyEndpointContributor;
import dev.agentmiddleware.tool.SessionFingerprint;

/**
 * The {@code approval} part of the {@code agentmiddleware} endpoint, a
 * {@link PolicyEndpointContributor} of the {@link ApprovalMiddleware} like every
 * built-in's: a global section with the policy, the pending requests and the latest audit
 * records (ids, tools, session fingerprints, hashes and outcomes; never argument values
 * nor session ids), and for each gated tool that it needs approval, with the timeout.
 */
final class ApprovalEndpointContributor {

	private static final int AUDIT_RECORDS = 20;

	private ApprovalEndpointContributor() {
	}

	static PolicyEndpointContributor of(ApprovalMiddleware middleware, ApprovalProperties properties, Clock clock) {
		return PolicyEndpointContributor
			.of(middleware,
					(tool) -> Map.of("requiresApproval", true, "timeout",
							PolicyEndpointContributor.text(middleware.timeout())))
			.withSection(() -> section(middleware, properties, clock.instant()));
	}

	private static Map<String, Object> section(ApprovalMiddleware middleware, ApprovalProperties properties,
			Instant now) {
		Map<String, Object> section = new LinkedHashMap<>();
		section.put("policy", properties.getPolicy().name().toLowerCase(java.util.Locale.ROOT));
		section.put("timeout", PolicyEndpointContributor.text(middleware.timeout()));
		section.put("providers", List.copyOf(properties.getProviders()));
		section.put("pending", middleware.store().pending(now).stream().map((request) -> {
			Map<String, Object> pending = new LinkedHashMap<>();
			pending.put("id", request.id());
			pending.put("tool", request.toolName());
			pending.put("session", SessionFingerprint.of(request.sessionId()));
			pending.put("createdAt", request.createdAt().toString());
			pending.put("expiresAt", request.expiresAt().toString());
			return pending;
		}).toList());
		section.put("audit", middleware.store().auditTrail(AUDIT_RECORDS).stream().map((record) -> {
			Map<String, Object> entry = new LinkedHashMap<>();
			entry.put("requestId", record.requestId());
			entry.put("tool", record.toolName());
			entry.put("argumentsHash", record.argumentsHash());
			entry.put("session", SessionFingerprint.of(record.sessionId()));
			entry.put("decidedBy", record.decidedBy());
			entry.put("outcome", record.outcome().tagValue());
			entry.put("decidedAt", record.decidedAt().toString());
			return entry;
		}).toList());
		return section;
	}

}
