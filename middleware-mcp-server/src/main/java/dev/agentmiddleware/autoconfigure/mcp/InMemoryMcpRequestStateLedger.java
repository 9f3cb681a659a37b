package dev.agentmiddleware.autoconfigure.mcp;

import java.time.Clock;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The {@link McpRequestStateLedger} of one instance: the ids of the states used, each
 * until it expires (the expired ones are dropped every few hundred uses). A retry that
 * lands on another instance is not seen here: several instances need a shared ledger.
 */
final class InMemoryMcpRequestStateLedger implements McpRequestStateLedger {

	private static final int PURGE_EVERY = 256;

	private final Map<String, Instant> used = new ConcurrentHashMap<>();

	private final AtomicInteger uses = new AtomicInteger();

	private final Clock clock;

	InMemoryMcpRequestStateLedger(Clock clock) {
		this.clock = clock;
	}

	@Override
	public boolean consume(String stateId, Instant expiresAt) {
		if (this.uses.incrementAndGet() % PURGE_EVERY == 0) {
			Instant now = this.clock.instant();
			this.used.values().removeIf((expiry) -> expiry.isBefore(now));
		}
		return this.used.putIfAbsent(stateId, expiresAt) == null;
	}

	int size() {
		return this.used.size();
	}

}
