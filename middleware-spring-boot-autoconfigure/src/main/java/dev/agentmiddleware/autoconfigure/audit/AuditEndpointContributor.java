package dev.agentmiddleware.autoconfigure.audit;

import java.util.List;

import dev.agentmiddleware.audit.AuditQuery;
import dev.agentmiddleware.audit.AuditRecord;
import dev.agentmiddleware.audit.AuditTrail;
import dev.agentmiddleware.autoconfigure.actuate.AgentMiddlewareEndpointContributor;

/**
 * The {@code audit} section of the {@code agentmiddleware} endpoint: the writer's
 * counters and the latest {@value #TAIL} audit records, the same records as
 * {@code GET /agent/audit} (no session id, no argument value except a tool's opted-in
 * redacted arguments).
 */
public final class AuditEndpointContributor implements AgentMiddlewareEndpointContributor {

	/** How many of the latest records the section shows. */
	public static final int TAIL = 20;

	private final AuditTrail trail;

	/**
	 * Creates the contributor.
	 * @param trail the audit trail to describe
	 */
	public AuditEndpointContributor(AuditTrail trail) {
		this.trail = trail;
	}

	@Override
	public String name() {
		return "audit";
	}

	@Override
	public Object describe() {
		return new AuditDescriptor(this.trail.writtenRecords(), this.trail.writeFailures(), this.trail.droppedRecords(),
				this.trail.pendingRecords(), this.trail.store().find(AuditQuery.all().withPage(0, TAIL)));
	}

	/**
	 * The audit trail's state.
	 *
	 * @param written records written to the store
	 * @param writeFailures batches the store refused
	 * @param dropped records dropped because the buffer was full
	 * @param pending records waiting to be written
	 * @param latest the latest records, newest first
	 */
	public record AuditDescriptor(long written, long writeFailures, long dropped, int pending,
			List<AuditRecord> latest) {

	}

}
