package dev.agentmiddleware.autoconfigure.approval;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import dev.agentmiddleware.approval.ApprovalAuditListener;
import dev.agentmiddleware.approval.ApprovalAuditListener.ApprovalAuditRecord;
import dev.agentmiddleware.observation.MicrometerMiddlewareMetrics;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;

/**
 * The one count of approval outcomes: {@code agent.tool.approvals}, tagged with the
 * outcome and the tool, one increment per audit record (the approval middleware itself
 * counts only requests, {@code agent.tool.approvals.requested}). Counters are registered
 * on first use and cached.
 */
final class ApprovalOutcomeCounter implements ApprovalAuditListener {

	static final String METER_NAME = "agent.tool.approvals";

	private final MeterRegistry meterRegistry;

	private final Map<String, Counter> counters = new ConcurrentHashMap<>();

	ApprovalOutcomeCounter(MeterRegistry meterRegistry) {
		this.meterRegistry = meterRegistry;
	}

	@Override
	public void onAudit(ApprovalAuditRecord record) {
		this.counters
			.computeIfAbsent(record.outcome().tagValue() + "\u0000" + record.toolName(),
					(key) -> Counter.builder(METER_NAME)
						.description("Approval outcomes of tool calls, by outcome")
						.tag("outcome", record.outcome().tagValue())
						.tag(MicrometerMiddlewareMetrics.TOOL_NAME_TAG, record.toolName())
						.register(this.meterRegistry))
			.increment();
	}

}
