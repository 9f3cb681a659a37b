package dev.agentmiddleware.approval;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Deque;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import org.jspecify.annotations.Nullable;

/**
 * An {@link ApprovalStore} in this JVM's memory: the default, for a single application instance. A waiting call
 * is released the moment its request is decided. Decided requests, grants and denials are kept in bounded maps;
 * the audit trail keeps the latest {@code maxAuditRecords}. Thread-safe.
 * <pre>{@code
 * ApprovalStore store = new InMemoryApprovalStore(1000);
 * }</pre>
 */
public final class InMemoryApprovalStore implements ApprovalStore {

	/** How many audit records are kept by default. */
	public static final int DEFAULT_MAX_AUDIT_RECORDS = 1000;

	private static final int MAX_REMEMBERED = 10_000;

	private final ConcurrentMap<String, Entry> requests = new ConcurrentHashMap<>();

	private final ConcurrentMap<String, SessionGrant> grants = new ConcurrentHashMap<>();

	private final ConcurrentMap<String, DeniedCall> denials = new ConcurrentHashMap<>();

	private final Deque<ApprovalAuditRecord> audit = new ArrayDeque<>();

	private final int maxAuditRecords;

	/**
	 * Creates a store keeping {@value #DEFAULT_MAX_AUDIT_RECORDS} audit records.
	 */
	public InMemoryApprovalStore() {
		this(DEFAULT_MAX_AUDIT_RECORDS);
	}

	/**
	 * Creates a store.
	 * @param maxAuditRecords how many audit records to keep
	 */
	public InMemoryApprovalStore(int maxAuditRecords) {
		if (maxAuditRecords < 1) {
			throw new IllegalArgumentException("maxAuditRecords must be at least 1, was " + maxAuditRecords);
		}
		this.maxAuditRecords = maxAuditRecords;
	}

	@Override
	public void add(ApprovalRequest request) {
		if (this.requests.size() >= MAX_REMEMBERED) {
			this.requests.values().removeIf((entry) -> entry.decision != null);
		}
		if (this.requests.putIfAbsent(request.id(), new Entry(request)) != null) {
			throw new IllegalArgumentException("Approval request " + request.id() + " exists already");
		}
	}

	@Override
	public List<ApprovalRequest> pending(Instant now) {
		List<ApprovalRequest> pending = new ArrayList<>();
		for (Entry entry : this.requests.values()) {
			if (entry.decision == null && !entry.request.isExpired(now)) {
				pending.add(entry.request);
			}
		}
		pending.sort(Comparator.comparing(ApprovalRequest::createdAt).thenComparing(ApprovalRequest::id));
		return pending;
	}

	@Override
	public Optional<ApprovalRequest> find(String id) {
		Entry entry = this.requests.get(id);
		return (entry != null) ? Optional.of(entry.request) : Optional.empty();
	}

	@Override
	public DecideResult decide(String id, ApprovalDecision decision, Instant now) {
		Entry entry = this.requests.get(id);
		if (entry == null) {
			return DecideResult.UNKNOWN;
		}
		synchronized (entry) {
			if (entry.decision != null) {
				return DecideResult.ALREADY_DECIDED;
			}
			if (entry.request.isExpired(now)) {
				return DecideResult.EXPIRED;
			}
			entry.decision = decision;
		}
		entry.decided.complete(decision);
		return DecideResult.DECIDED;
	}

	@Override
	public Optional<ApprovalDecision> awaitDecision(String id, Instant deadline, Clock clock)
			throws InterruptedException {
		Entry entry = this.requests.get(id);
		if (entry == null) {
			return Optional.empty();
		}
		long remaining = Duration.between(clock.instant(), deadline).toNanos();
		if (remaining > 0) {
			try {
				return Optional.of(entry.decided.get(remaining, TimeUnit.NANOSECONDS));
			}
			catch (TimeoutException | ExecutionException ex) {
				// Undecided in time.
			}
		}
		return Optional.ofNullable(entry.decision);
	}

	@Override
	public ApprovalDecision close(String id, ApprovalDecision fallback, Instant now) {
		Entry entry = this.requests.get(id);
		if (entry == null) {
			return fallback;
		}
		ApprovalDecision standing;
		synchronized (entry) {
			if (entry.decision == null) {
				entry.decision = fallback;
			}
			standing = entry.decision;
		}
		entry.decided.complete(standing);
		return standing;
	}

	@Override
	public void grant(SessionGrant grant) {
		if (this.grants.size() >= MAX_REMEMBERED) {
			Instant now = Instant.now();
			this.grants.values().removeIf((each) -> !now.isBefore(each.expiresAt()));
		}
		this.grants.put(key(grant.sessionId(), grant.toolName(), grant.argumentsHash()), grant);
	}

	@Override
	public Optional<SessionGrant> findGrant(String sessionId, String toolName, String argumentsHash, Instant now) {
		for (String key : new String[] { key(sessionId, toolName, argumentsHash), key(sessionId, toolName, null) }) {
			SessionGrant grant = this.grants.get(key);
			if (grant != null && grant.covers(sessionId, toolName, argumentsHash, now)) {
				return Optional.of(grant);
			}
		}
		return Optional.empty();
	}

	@Override
	public void recordDenial(DeniedCall denial) {
		if (this.denials.size() >= MAX_REMEMBERED) {
			Iterator<Map.Entry<String, DeniedCall>> oldest = this.denials.entrySet().iterator();
			oldest.next();
			oldest.remove();
		}
		this.denials.put(key(denial.sessionId(), denial.toolName(), denial.argumentsHash()), denial);
	}

	@Override
	public Optional<DeniedCall> findDenial(String sessionId, String toolName, String argumentsHash, Instant since) {
		DeniedCall denial = this.denials.get(key(sessionId, toolName, argumentsHash));
		return (denial != null && !denial.deniedAt().isBefore(since)) ? Optional.of(denial) : Optional.empty();
	}

	@Override
	public void audit(ApprovalAuditRecord record) {
		synchronized (this.audit) {
			this.audit.addFirst(record);
			while (this.audit.size() > this.maxAuditRecords) {
				this.audit.removeLast();
			}
		}
	}

	@Override
	public List<ApprovalAuditRecord> auditTrail(int limit) {
		synchronized (this.audit) {
			return this.audit.stream().limit(limit).toList();
		}
	}

	private static String key(String sessionId, String toolName, @Nullable String argumentsHash) {
		return sessionId + '\u0000' + toolName + '\u0000' + ((argumentsHash != null) ? argumentsHash : "*");
	}

	private static final class Entry {

		final ApprovalRequest request;

		final CompletableFuture<ApprovalDecision> decided = new CompletableFuture<>();

		volatile @Nullable ApprovalDecision decision;

		Entry(ApprovalRequest request) {
			this.request = request;
		}

	}

}
