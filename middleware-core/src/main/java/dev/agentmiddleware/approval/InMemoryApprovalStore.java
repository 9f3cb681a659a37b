package dev.agentmiddleware.approval;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Deque;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Predicate;

import dev.agentmiddleware.approval.ApprovalAuditListener.ApprovalAuditRecord;
import dev.agentmiddleware.approval.ApprovalStore.DeniedCall;
import org.jspecify.annotations.Nullable;

/**
 * An {@link ApprovalStore} in this JVM's memory: the default, for a single application
 * instance. A waiting call is released the moment its request is decided. Decided
 * requests, grants and denials are kept in bounded maps: expired grants and denials older
 * than the repeat window are dropped as calls look them up, and beyond
 * {@code maxRemembered} the oldest are forgotten (which fails safe: the call is asked
 * about again); the audit trail keeps the latest {@code maxAuditRecords}. Thread-safe.
 * <pre>{@code
 * ApprovalStore store = new InMemoryApprovalStore(1000);
 * }</pre>
 */
public final class InMemoryApprovalStore implements ApprovalStore {

	/** How many audit records are kept by default. */
	public static final int DEFAULT_MAX_AUDIT_RECORDS = 1000;

	/**
	 * How many session grants, and how many remembered denials, are kept at most by
	 * default.
	 */
	public static final int DEFAULT_MAX_REMEMBERED = 10_000;

	private final ConcurrentMap<String, Entry> requests = new ConcurrentHashMap<>();

	// Oldest first: a grant or denial stored again moves to the end. Expired grants and
	// denials older than the
	// window asked about are dropped from the front as they are looked up; beyond the cap
	// the oldest go.
	private final RecentEntries<SessionGrant> grants;

	private final RecentEntries<DeniedCall> denials;

	private final Deque<ApprovalAuditRecord> audit = new ArrayDeque<>();

	private final int maxAuditRecords;

	private final int maxRemembered;

	/**
	 * Creates a store keeping {@value #DEFAULT_MAX_AUDIT_RECORDS} audit records.
	 */
	public InMemoryApprovalStore() {
		this(DEFAULT_MAX_AUDIT_RECORDS);
	}

	/**
	 * Creates a store keeping at most {@value #DEFAULT_MAX_REMEMBERED} grants and as many
	 * denials.
	 * @param maxAuditRecords how many audit records to keep
	 */
	public InMemoryApprovalStore(int maxAuditRecords) {
		this(maxAuditRecords, DEFAULT_MAX_REMEMBERED);
	}

	/**
	 * Creates a store.
	 * @param maxAuditRecords how many audit records to keep
	 * @param maxRemembered how many session grants, and how many denials, to keep at
	 * most; beyond it the oldest are forgotten (a forgotten grant means asking again, a
	 * forgotten denial means asking again: both fail safe)
	 */
	public InMemoryApprovalStore(int maxAuditRecords, int maxRemembered) {
		if (maxAuditRecords < 1) {
			throw new IllegalArgumentException("maxAuditRecords must be at least 1, was " + maxAuditRecords);
		}
		if (maxRemembered < 1) {
			throw new IllegalArgumentException("maxRemembered must be at least 1, was " + maxRemembered);
		}
		this.maxAuditRecords = maxAuditRecords;
		this.maxRemembered = maxRemembered;
		this.grants = new RecentEntries<>(maxRemembered);
		this.denials = new RecentEntries<>(maxRemembered);
	}

	@Override
	public void add(ApprovalRequest request) {
		if (this.requests.size() >= this.maxRemembered) {
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
		this.grants.put(key(grant.sessionId(), grant.toolName(), grant.argumentsHash()), grant);
	}

	@Override
	public Optional<SessionGrant> findGrant(String sessionId, String toolName, String argumentsHash, Instant now) {
		this.grants.dropOldestWhile((grant) -> !now.isBefore(grant.expiresAt()));
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
		this.denials.put(key(denial.sessionId(), denial.toolName(), denial.argumentsHash()), denial);
	}

	@Override
	public Optional<DeniedCall> findDenial(String sessionId, String toolName, String argumentsHash, Instant since) {
		this.denials.dropOldestWhile((denial) -> denial.deniedAt().isBefore(since));
		DeniedCall denial = this.denials.get(key(sessionId, toolName, argumentsHash));
		return (denial != null && !denial.deniedAt().isBefore(since)) ? Optional.of(denial) : Optional.empty();
	}

	/**
	 * How many session grants and remembered denials the store holds.
	 * @return the number of grants plus the number of denials
	 */
	public int rememberedSize() {
		return this.grants.size() + this.denials.size();
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

	/**
	 * Entries by key, oldest first, at most {@code max} of them; guarded by its own lock
	 * (grants and denials are looked up only for calls that need approval).
	 */
	private static final class RecentEntries<V> {

		private final LinkedHashMap<String, V> entries = new LinkedHashMap<>();

		private final int max;

		RecentEntries(int max) {
			this.max = max;
		}

		synchronized void put(String key, V value) {
			this.entries.remove(key);
			this.entries.put(key, value);
			if (this.entries.size() > this.max) {
				Iterator<V> oldest = this.entries.values().iterator();
				oldest.next();
				oldest.remove();
			}
		}

		synchronized @Nullable V get(String key) {
			return this.entries.get(key);
		}

		// Stops at the first entry that is still wanted: entries are kept in the order
		// they were stored, which is
		// the order they expire in when they share a lifetime, and a lookup never scans
		// past a live one.
		synchronized void dropOldestWhile(Predicate<V> obsolete) {
			Iterator<V> oldest = this.entries.values().iterator();
			while (oldest.hasNext() && obsolete.test(oldest.next())) {
				oldest.remove();
			}
		}

		synchronized int size() {
			return this.entries.size();
		}

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
