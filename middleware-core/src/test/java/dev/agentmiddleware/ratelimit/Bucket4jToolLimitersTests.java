package dev.agentmiddleware.ratelimit;

import java.sql.SQLException;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.ReentrantLock;

import dev.agentmiddleware.ratelimit.RateLimiterStore.RateLimitDecision;
import dev.agentmiddleware.ratelimit.RateLimiterStore.RateLimiterUnavailableException;
import dev.agentmiddleware.ratelimit.RateLimiterStore.ToolLimiter;
import io.github.bucket4j.BucketExceptions;
import io.github.bucket4j.distributed.proxy.ClientSideConfig;
import io.github.bucket4j.distributed.proxy.generic.select_for_update.AbstractSelectForUpdateBasedProxyManager;
import io.github.bucket4j.distributed.proxy.generic.select_for_update.LockAndGetResult;
import io.github.bucket4j.distributed.proxy.generic.select_for_update.SelectForUpdateBasedTransaction;
import io.github.bucket4j.distributed.remote.RemoteBucketState;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * Tests for {@link Bucket4jToolLimiters} with batching on a lock-based backend:
 * Bucket4j's {@code SELECT ... FOR UPDATE} algorithm, the one of its PostgreSQL backend,
 * over a table in memory.
 */
class Bucket4jToolLimitersTests {

	private final RowLockingBuckets buckets = new RowLockingBuckets();

	private final Bucket4jToolLimiters limiters = new Bucket4jToolLimiters(() -> this.buckets, "", "Test", true);

	@Test
	void batchedPermitsOnABucketMissingFromALockBasedBackendCreateItAndAreCountedExactly() throws Exception {
		ToolLimiter limiter = this.limiters.limiter("search", RateLimitPolicy.of(3, Duration.ofHours(1)));
		assertThat(limiter.acquire("").granted()).isTrue();
		CountDownLatch resume = this.buckets.holdNextRelease();
		Caller first = Caller.start(limiter);
		this.buckets.awaitHeld();
		Caller second = Caller.start(limiter);
		Caller third = Caller.start(limiter);
		// Both wait for the first one's command, to go to the backend as one batch
		await().atMost(Duration.ofSeconds(10)).until(() -> second.waiting() && third.waiting());
		// The bucket goes away meanwhile (expired rows are deleted): the batch finds
		// no bucket
		this.buckets.removeProxy("search|TOOL|");
		resume.countDown();
		assertThat(first.decision().granted()).isTrue();
		assertThat(second.decision().granted()).isTrue();
		assertThat(third.decision().granted()).isTrue();
		// The bucket made again counted both: one permit of 3 left
		assertThat(limiter.acquire("").granted()).isTrue();
		assertThat(limiter.acquire("").granted()).isFalse();
	}

	@Test
	void aFailingBackendIsUnavailableWithBatching() {
		ToolLimiter limiter = this.limiters.limiter("search", RateLimitPolicy.of(3, Duration.ofHours(1)));
		this.buckets.failing = true;
		assertThatExceptionOfType(RateLimiterUnavailableException.class).isThrownBy(() -> limiter.acquire(""))
			.withMessage("the Test rate-limit store failed for tool 'search': BucketExecutionException: "
					+ "connection refused");
	}

	/**
	 * A call of a limiter on a thread of its own.
	 */
	private static final class Caller {

		private final FutureTask<RateLimitDecision> call;

		private final Thread thread;

		private Caller(ToolLimiter limiter) {
			this.call = new FutureTask<>(() -> limiter.acquire(""));
			this.thread = new Thread(this.call);
		}

		static Caller start(ToolLimiter limiter) {
			Caller caller = new Caller(limiter);
			caller.thread.start();
			return caller;
		}

		boolean waiting() {
			return this.thread.getState() == Thread.State.WAITING;
		}

		RateLimitDecision decision() throws Exception {
			return this.call.get(10, TimeUnit.SECONDS);
		}

	}

	/**
	 * Bucket4j's lock-based algorithm over rows in memory (a row without state is one
	 * inserted to be locked, as its PostgreSQL backend does), one lock for every row. The
	 * next transaction can be held once it has committed, before it lets its connection
	 * go.
	 */
	private static final class RowLockingBuckets extends AbstractSelectForUpdateBasedProxyManager<String> {

		private final Map<String, Optional<byte[]>> rows = new ConcurrentHashMap<>();

		private final ReentrantLock rowLock = new ReentrantLock();

		private final AtomicReference<@Nullable CountDownLatch> holdNextRelease = new AtomicReference<>();

		private final CountDownLatch held = new CountDownLatch(1);

		volatile boolean failing;

		RowLockingBuckets() {
			super(ClientSideConfig.getDefault());
		}

		CountDownLatch holdNextRelease() {
			CountDownLatch resume = new CountDownLatch(1);
			this.holdNextRelease.set(resume);
			return resume;
		}

		void awaitHeld() throws InterruptedException {
			assertThat(this.held.await(10, TimeUnit.SECONDS)).isTrue();
		}

		@Override
		public void removeProxy(String key) {
			this.rowLock.lock();
			try {
				this.rows.remove(key);
			}
			finally {
				this.rowLock.unlock();
			}
		}

		@Override
		protected SelectForUpdateBasedTransaction allocateTransaction(String key, Optional<Long> timeoutNanos) {
			if (this.failing) {
				throw new BucketExceptions.BucketExecutionException(new SQLException("connection refused"));
			}
			return new SelectForUpdateBasedTransaction() {

				@Override
				public void begin(Optional<Long> timeoutNanos) {
				}

				@Override
				public LockAndGetResult tryLockAndGet(Optional<Long> timeoutNanos) {
					RowLockingBuckets.this.rowLock.lock();
					Optional<byte[]> row = RowLockingBuckets.this.rows.get(key);
					if (row == null) {
						RowLockingBuckets.this.rowLock.unlock();
						return LockAndGetResult.notLocked();
					}
					return LockAndGetResult.locked(row.orElse(null));
				}

				@Override
				public boolean tryInsertEmptyData(Optional<Long> timeoutNanos) {
					return RowLockingBuckets.this.rows.putIfAbsent(key, Optional.empty()) == null;
				}

				@Override
				public void update(byte[] data, RemoteBucketState newState, Optional<Long> timeoutNanos) {
					RowLockingBuckets.this.rows.put(key, Optional.of(data));
				}

				@Override
				public void commit(Optional<Long> timeoutNanos) {
					unlock();
				}

				@Override
				public void rollback() {
					unlock();
				}

				@Override
				public void release() {
					CountDownLatch resume = RowLockingBuckets.this.holdNextRelease.getAndSet(null);
					if (resume != null) {
						RowLockingBuckets.this.held.countDown();
						try {
							resume.await();
						}
						catch (InterruptedException ex) {
							Thread.currentThread().interrupt();
						}
					}
				}

				private void unlock() {
					if (RowLockingBuckets.this.rowLock.isHeldByCurrentThread()) {
						RowLockingBuckets.this.rowLock.unlock();
					}
				}

			};
		}

	}

}
