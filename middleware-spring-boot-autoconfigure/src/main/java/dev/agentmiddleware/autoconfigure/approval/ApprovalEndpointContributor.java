package dev.agentmiddleware.autoconfigure.approval;

import java.time.Clock;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.agentmiddleware.approval.ApprovalMiddleware;
import dev.agentmiddleware.autoconfigure.actuate.AgentMiddlewareEndpointContributor;
import dev.agentmiddleware.autoconfigure.actuate.AgentMiddlewareEndpointContributor.PolicyEndpointContributor;
import dev.agentmiddleware.autoconfigure.tool.RegisteredTool;
import dev.agentmiddleware.tool.SessionFingerprint;
import org.jspecify.annotations.Nullable;

import org.springframework.core.Ordered;

/**
 * The {@code approval} section of the {@code agentmiddleware} endpoint: the policy, the pending requests and the
 * latest audit records (ids, tools, session fingerprints, hashes and outcomes; never argument values nor session ids),
 * and for each gated tool that it needs approval.
 */
final class ApprovalEndpointContributor implements AgentMiddlewareEndpointContributor, Ordered {

	private static final int AUDIT_RECORDS = 20;

	private final ApprovalMiddleware middleware;

	private final ApprovalProperties properties;

	private final Clock clock;

	ApprovalEndpointContributor(ApprovalMiddleware middleware, ApprovalProperties properties, Clock clock) {
		this.middleware = middleware;
		this.properties = properties;
		this.clock = clock;
	}

	@Override
	public String name() {
		return this.middleware.name();
	}

	@Override
	public int getOrder() {
		return this.middleware.order();
	}

	@Override
	public @Nullable Object describe() {
		Instant now = this.clock.instant();
		Map<String, Object> section = new LinkedHashMap<>();
		section.put("policy", this.properties.getPolicy().name().toLowerCase(java.util.Locale.ROOT));
		section.put("timeout", PolicyEndpointContributor.text(this.middleware.timeout()));
		section.put("providers", List.copyOf(this.properties.getProviders()));
		section.put("pending", this.middleware.store().pending(now).stream().map((request) -> {
			Map<String, Object> pending = new LinkedHashMap<>();
			pending.put("id", request.id());
			pending.put("tool", request.toolName());
			pending.put("session", SessionFingerprint.of(request.sessionId()));
			pending.put("createdAt", request.createdAt().toString());
			pending.put("expiresAt", request.expiresAt().toString());
			return pending;
		}).toList());
		section.put("audit", this.middleware.store().auditTrail(AUDIT_RECORDS).stream().map((record) -> {
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

	@Override
	public @Nullable Object describeTool(RegisteredTool tool) {
		if (!tool.pipeline().layers().contains(this.middleware.name())) {
			return null;
		}
		return Map.of("requiresApproval", true, "timeout", PolicyEndpointContributor.text(this.middleware.timeout()));
	}

}
