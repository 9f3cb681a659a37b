package dev.agentmiddleware.benchmarks;

import java.io.Writer;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicLong;

import com.github.benmanes.caffeine.cache.Ticker;
import dev.agentmiddleware.approval.ApprovalStore.DeniedCall;
import dev.agentmiddleware.approval.InMemoryApprovalStore;
import dev.agentmiddleware.approval.SessionGrant;
import dev.agentmiddleware.cache.CacheMiddleware;
import dev.agentmiddleware.cache.CachePolicy;
import dev.agentmiddleware.cache.CachePolicy.CacheScope;
import dev.agentmiddleware.cache.ToolResultCache;
import dev.agentmiddleware.chain.ToolPipeline;
import dev.agentmiddleware.ratelimit.RateLimitMiddleware;
import dev.agentmiddleware.ratelimit.RateLimitPolicy;
import dev.agentmiddleware.ratelimit.RateLimitPolicy.RateLimitKey;
import dev.agentmiddleware.thread.ThreadStore.InMemoryThreadStore;
import dev.agentmiddleware.tool.ToolDescriptor;
import dev.agentmiddleware.tool.ToolDescriptor.SafetyLevel;
import dev.agentmiddleware.tool.ToolInvocation;

/**
 * Opens 100,000 sessions against the per-session state the built-ins keep (a
 * session-scoped cache entry, a per-session rate limiter and call budget, an approval
 * grant and a remembered denial, a thread in the in-memory thread store), each session
 * making one call, and reports the heap retained after a full collection: with 10,000
 * sessions (every cap still above them), with 100,000, and after the sessions have been
 * idle past every timeout (time moved by an injected ticker and clock). Not a JMH
 * benchmark: retained heap is a state, not a rate. <pre>
 * java -cp middleware-benchmarks/target/benchmarks.jar dev.agentmiddleware.benchmarks.SessionMemoryProbe [figures.properties]
 * </pre>
 */
public final class SessionMemoryProbe {

	private static final int SESSIONS = 100_000;

	private static final int CAP = 10_000;

	private static final Instant T0 = Instant.parse("2026-11-24T08:00:00Z");

	private static final Duration GRANT_TTL = Duration.ofHours(1);

	private static final Duration DENY_WINDOW = Duration.ofMinutes(5);

	private final AtomicLong nanos = new AtomicLong();

	private final Ticker ticker = this.nanos::get;

	private final ToolDescriptor echo = ToolDescriptor.builder("echo")
		.safety(SafetyLevel.SAFE)
		.readOnly(true)
		.resultType(String.class)
		.build();

	private final ToolPipeline pipeline;

	private final InMemoryApprovalStore approvals = new InMemoryApprovalStore(1000, CAP);

	private final InMemoryThreadStore threads = new InMemoryThreadStore(CAP);

	private SessionMemoryProbe() {
		ToolResultCache cache = ToolResultCache.builder().ticker(this.ticker).build();
		CacheMiddleware caching = CacheMiddleware.builder()
			.cache(cache)
			.defaultPolicy(new CachePolicy(Duration.ofMinutes(5), CAP, CacheScope.SESSION))
			.build();
		RateLimitMiddleware rateLimit = RateLimitMiddleware.builder()
			.policies((tool) -> new RateLimitPolicy(100, Duration.ofSeconds(1), Duration.ZERO,
					RateLimitKey.TOOL_AND_SESSION, 1000))
			.ticker(this.ticker)
			.maxTrackedKeys(CAP)
			.sessionIdleTimeout(Duration.ofHours(1))
			.build();
		this.pipeline = ToolPipeline.builder(this.echo, (invocation) -> invocation.argument("text"))
			.middleware(java.util.List.of(caching, rateLimit))
			.build();
	}

	/**
	 * Runs the probe.
	 * @param args optionally, a file to write the figures to as properties, for
	 * {@code BenchmarkReport}
	 * @throws Exception if a call fails
	 */
	public static void main(String[] args) throws Exception {
		Properties figures = new SessionMemoryProbe().run();
		if (args.length > 0) {
			try (Writer out = Files.newBufferedWriter(Path.of(args[0]))) {
				figures.store(out, "SessionMemoryProbe: retained heap in bytes");
			}
		}
	}

	private Properties run() throws Exception {
		System.out.println("Chain: " + this.pipeline.describe());
		long baseline = retainedHeap();
		openSessions(0, CAP);
		long atCap = retainedHeap();
		openSessions(CAP, SESSIONS);
		long all = retainedHeap();
		System.out.println("Held after " + SESSIONS + " sessions: " + this.approvals.rememberedSize()
				+ " grants and denials, " + this.threads.size() + " threads");
		// Every session idle for two hours: past the cache's time to live, the limiters'
		// refill, the budgets' idle
		// timeout, the grants' lifetime and the denials' repeat window. One more
		// session's call and look-ups run
		// the caches' maintenance and drop what is obsolete.
		this.nanos.addAndGet(Duration.ofHours(2).toNanos());
		Instant later = now().plus(Duration.ofHours(2));
		call("session-after", later);
		long afterEviction = retainedHeap();
		System.out.println("Held after eviction: " + this.approvals.rememberedSize() + " grants and denials, "
				+ this.threads.size() + " threads (kept until the cap pushes them out: thread metadata is data)");
		double perSession = (atCap - baseline) / (double) CAP;
		System.out.printf(Locale.ROOT, "baseline heap:                      %,12d B%n", baseline);
		System.out.printf(Locale.ROOT, "after %,7d sessions:              %,12d B (+%,d B, %,.0f B per session)%n", CAP,
				atCap, atCap - baseline, perSession);
		System.out.printf(Locale.ROOT,
				"after %,7d sessions:              %,12d B (+%,d B; unbounded would be +%,.0f B)%n", SESSIONS, all,
				all - baseline, perSession * SESSIONS);
		System.out.printf(Locale.ROOT, "after every session idled 2 h:     %,12d B (+%,d B)%n", afterEviction,
				afterEviction - baseline);
		Properties figures = new Properties();
		figures.setProperty("sessions", Integer.toString(SESSIONS));
		figures.setProperty("cap", Integer.toString(CAP));
		figures.setProperty("retained.cap", Long.toString(atCap - baseline));
		figures.setProperty("retained.all", Long.toString(all - baseline));
		figures.setProperty("retained.idle", Long.toString(afterEviction - baseline));
		figures.setProperty("retained.idle.threads", Integer.toString(this.threads.size()));
		return figures;
	}

	private void openSessions(int from, int to) throws Exception {
		for (int i = from; i < to; i++) {
			this.nanos.addAndGet(Duration.ofMillis(10).toNanos());
			call("session-" + i, now());
		}
	}

	private Instant now() {
		return T0.plusNanos(this.nanos.get());
	}

	private void call(String session, Instant now) throws Exception {
		this.pipeline.call(ToolInvocation.builder(this.echo).sessionId(session).argument("text", "hello").build());
		this.approvals
			.grant(new SessionGrant(session, "delete_file", "hash-" + session, "approver", now.plus(GRANT_TTL)));
		this.approvals
			.recordDenial(new DeniedCall(session, "write_file", "hash-" + session, "approver", "not today", now));
		this.approvals.findGrant(session, "delete_file", "hash-" + session, now);
		this.approvals.findDenial(session, "write_file", "hash-" + session, now.minus(DENY_WINDOW));
		this.threads.update(session, (values) -> Map.of("todos",
				java.util.List.of(Map.of("id", "1", "text", "look at the weather", "status", "pending"))));
	}

	private static long retainedHeap() throws InterruptedException {
		MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
		long used = Long.MAX_VALUE;
		for (int i = 0; i < 5; i++) {
			System.gc();
			Thread.sleep(100);
			used = Math.min(used, memory.getHeapMemoryUsage().getUsed());
		}
		return used;
	}

}
