package dev.agentmiddleware.autoconfigure.mcp;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;
import static org.awaitility.Awaitility.await;

class GroupCommitTests {

	private final ExecutorService threads = Executors.newCachedThreadPool();

	// The groups written, in order
	private final List<List<String>> groups = new CopyOnWriteArrayList<>();

	// Released by the test: the first write waits for it
	private final CountDownLatch firstWriteMayEnd = new CountDownLatch(1);

	@AfterEach
	void stopThreads() {
		this.threads.shutdownNow();
	}

	@Test
	void anItemAskedWhileNothingIsWrittenIsWrittenAtOnceInAGroupOfItsOwn() {
		GroupCommit<String, String> commit = new GroupCommit<>(8, upperCase());

		assertThat(commit.write("a")).isEqualTo("A");
		assertThat(commit.write("b")).isEqualTo("B");

		assertThat(this.groups).containsExactly(List.of("a"), List.of("b"));
	}

	@Test
	void itemsAskedWhileAWriteRunsAreWrittenTogetherInTheOrderAskedAndEachGetsItsOwnResult() throws Exception {
		GroupCommit<String, String> commit = new GroupCommit<>(8, firstWriteWaits(upperCase()));
		List<CompletableFuture<String>> asked = askDuringTheFirstWrite(commit, "a", "b", "c", "d");

		this.firstWriteMayEnd.countDown();

		assertThat(asked.get(0).get(30, TimeUnit.SECONDS)).isEqualTo("A");
		assertThat(asked.get(1).get(30, TimeUnit.SECONDS)).isEqualTo("B");
		assertThat(asked.get(2).get(30, TimeUnit.SECONDS)).isEqualTo("C");
		assertThat(asked.get(3).get(30, TimeUnit.SECONDS)).isEqualTo("D");
		assertThat(this.groups).containsExactly(List.of("a"), List.of("b", "c", "d"));
		assertThat(commit.waiting()).isZero();
	}

	@Test
	void aGroupHoldsAtMostMaxGroupItemsAndTheRestGoInTheNextOne() throws Exception {
		GroupCommit<String, String> commit = new GroupCommit<>(2, firstWriteWaits(upperCase()));
		List<CompletableFuture<String>> asked = askDuringTheFirstWrite(commit, "a", "b", "c", "d");

		this.firstWriteMayEnd.countDown();

		for (CompletableFuture<String> one : asked) {
			assertThat(one.get(30, TimeUnit.SECONDS)).isNotNull();
		}
		assertThat(this.groups).containsExactly(List.of("a"), List.of("b", "c"), List.of("d"));
	}

	@Test
	void aWriteThatThrowsFailsEveryItemOfItsGroupWithItsExceptionAndTheNextGroupIsWritten() throws Exception {
		IllegalStateException refused = new IllegalStateException("the database is down");
		GroupCommit<String, String> commit = new GroupCommit<>(8, firstWriteWaits((items) -> {
			if (items.contains("b")) {
				this.groups.add(List.copyOf(items));
				throw refused;
			}
			return upperCase().apply(items);
		}));
		List<CompletableFuture<String>> asked = askDuringTheFirstWrite(commit, "a", "b", "c");

		this.firstWriteMayEnd.countDown();

		assertThat(asked.get(0).get(30, TimeUnit.SECONDS)).isEqualTo("A");
		assertThat(asked.get(1)).failsWithin(Duration.ofSeconds(30))
			.withThrowableThat()
			.havingCause()
			.isSameAs(refused);
		assertThat(asked.get(2)).failsWithin(Duration.ofSeconds(30))
			.withThrowableThat()
			.havingCause()
			.isSameAs(refused);
		assertThat(commit.write("d")).isEqualTo("D");
		assertThat(this.groups).containsExactly(List.of("a"), List.of("b", "c"), List.of("d"));
	}

	@Test
	void manyThreadsAskingAtOnceEachGetTheirOwnResultFromWritesThatNeverOverlapAndWriteEveryItemOnce()
			throws Exception {
		AtomicBoolean writing = new AtomicBoolean();
		Set<String> written = ConcurrentHashMap.newKeySet();
		AtomicInteger writes = new AtomicInteger();
		GroupCommit<String, String> commit = new GroupCommit<>(16, (items) -> {
			assertThat(writing.compareAndSet(false, true)).as("a write while another runs").isTrue();
			writes.incrementAndGet();
			for (String item : items) {
				assertThat(written.add(item)).as("%s written twice", item).isTrue();
			}
			Thread.yield();
			writing.set(false);
			return items.stream().map((item) -> item.toUpperCase(Locale.ROOT)).toList();
		});
		List<CompletableFuture<Void>> askers = new ArrayList<>();
		for (int thread = 0; thread < 16; thread++) {
			String name = "t" + thread + "-";
			askers.add(CompletableFuture.runAsync(() -> {
				for (int i = 0; i < 200; i++) {
					assertThat(commit.write(name + i)).isEqualTo((name + i).toUpperCase(Locale.ROOT));
				}
			}, this.threads));
		}

		CompletableFuture.allOf(askers.toArray(CompletableFuture[]::new)).get(60, TimeUnit.SECONDS);

		assertThat(written).hasSize(16 * 200);
		assertThat(writes.get()).isLessThanOrEqualTo(16 * 200);
		assertThat(commit.waiting()).isZero();
	}

	@Test
	void aThreadInterruptedWhileItWaitsStillGetsItsResultAndKeepsItsInterrupt() throws Exception {
		GroupCommit<String, String> commit = new GroupCommit<>(8, firstWriteWaits(upperCase()));
		CompletableFuture<String> first = ask(commit, "a");
		await().atMost(Duration.ofSeconds(30)).until(() -> this.groups.size() == 1);
		AtomicReference<Thread> asker = new AtomicReference<>();
		CompletableFuture<Boolean> interruptedAfter = CompletableFuture.supplyAsync(() -> {
			asker.set(Thread.currentThread());
			assertThat(commit.write("b")).isEqualTo("B");
			return Thread.currentThread().isInterrupted();
		}, this.threads);
		await().atMost(Duration.ofSeconds(30)).until(() -> commit.waiting() == 1);
		asker.get().interrupt();

		this.firstWriteMayEnd.countDown();

		assertThat(first.get(30, TimeUnit.SECONDS)).isEqualTo("A");
		assertThat(interruptedAfter.get(30, TimeUnit.SECONDS)).isTrue();
		assertThat(this.groups).containsExactly(List.of("a"), List.of("b"));
	}

	@Test
	void aWriteThatGivesAResultCountOtherThanItsItemCountFailsItsItems() {
		GroupCommit<String, String> commit = new GroupCommit<>(8, (items) -> List.of());

		assertThatIllegalStateException().isThrownBy(() -> commit.write("a"))
			.withMessage("A group write gave 0 results for 1 items");
	}

	@Test
	void aGroupOfFewerThanOneItemIsRefused() {
		assertThatIllegalArgumentException().isThrownBy(() -> new GroupCommit<>(0, upperCase()))
			.withMessage("maxGroup must be at least 1, was 0");
	}

	// Asks the first item, then, while its write waits, the others one after another,
	// each queued before the next is asked; their futures in the order asked
	private List<CompletableFuture<String>> askDuringTheFirstWrite(GroupCommit<String, String> commit, String first,
			String... during) {
		List<CompletableFuture<String>> asked = new ArrayList<>();
		asked.add(ask(commit, first));
		await().atMost(Duration.ofSeconds(30)).until(() -> this.groups.size() == 1);
		for (String item : during) {
			asked.add(ask(commit, item));
			int waiting = asked.size() - 1;
			await().atMost(Duration.ofSeconds(30)).until(() -> commit.waiting() == waiting);
		}
		return asked;
	}

	private CompletableFuture<String> ask(GroupCommit<String, String> commit, String item) {
		return CompletableFuture.supplyAsync(() -> commit.write(item), this.threads);
	}

	// Records each group, then gives each item in upper case
	private Function<List<String>, List<String>> upperCase() {
		return (items) -> {
			this.groups.add(List.copyOf(items));
			return items.stream().map((item) -> item.toUpperCase(Locale.ROOT)).toList();
		};
	}

	// The first write is recorded, then waits until the test releases it
	private Function<List<String>, List<String>> firstWriteWaits(Function<List<String>, List<String>> write) {
		return (items) -> {
			boolean first = this.groups.isEmpty();
			if (first) {
				this.groups.add(List.copyOf(items));
				try {
					this.firstWriteMayEnd.await();
				}
				catch (InterruptedException ex) {
					Thread.currentThread().interrupt();
					throw new IllegalStateException(ex);
				}
				return items.stream().map((item) -> item.toUpperCase(Locale.ROOT)).toList();
			}
			return write.apply(items);
		};
	}

}
