package dev.agentmiddleware.audit;

import java.time.Instant;
import java.util.List;

/**
 * Where audit records are kept. The {@link AuditTrail} writes to it from its one writer
 * thread, in batches; queries come from any thread. Implementations must be thread-safe.
 * <pre>{@code
 * List<AuditRecord> denied = store.find(AuditQuery.all().withOutcome(CallOutcome.DENIED));
 * }</pre>
 */
public interface AuditStore {

	/**
	 * Keeps a batch of records. Either all are kept or the method throws, in which case
	 * the writer retries the same batch later.
	 * @param records the records, oldest first
	 */
	void append(List<AuditRecord> records);

	/**
	 * The records that match a query, newest first, one page.
	 * @param query the filters and page
	 * @return the page
	 */
	List<AuditRecord> find(AuditQuery query);

	/**
	 * Removes the records older than a time (retention).
	 * @param cutoff the records with a {@link AuditRecord#time() time} before it are
	 * removed
	 * @return how many were removed
	 */
	int purgeBefore(Instant cutoff);

}
