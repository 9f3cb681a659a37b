package dev.agentmiddleware.thread;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import dev.agentmiddleware.thread.ThreadStore.InMemoryThreadStore;
import dev.agentmiddleware.thread.ThreadStore.ThreadMetadata;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

class InMemoryThreadStoreTests {

	private final ThreadStore store = new InMemoryThreadStore();

	@Test
	void anUnknownThreadHasEmptyMetadataAtVersionZero() {
		ThreadMetadata metadata = this.store.load("t1");
		assertThat(metadata.values()).isEmpty();
		assertThat(metadata.version()).isZero();
	}

	@Test
	void updatesAreVersionedAndThreadsAreSeparate() {
		this.store.update("t1", (values) -> Map.of("todos", List.of(Map.of("id", "1"))));
		ThreadMetadata written = this.store.update("t1", (values) -> with(values, "note", "hi"));
		assertThat(written.version()).isEqualTo(2);
		assertThat(this.store.load("t1").values()).containsEntry("note", "hi").containsKey("todos");
		assertThat(this.store.load("t2").values()).isEmpty();
	}

	@Test
	void beyondMaxThreadsTheThreadUsedLeastRecentlyIsForgotten() {
		InMemoryThreadStore bounded = new InMemoryThreadStore(2);
		bounded.update("t1", (values) -> Map.of("note", "one"));
		bounded.update("t2", (values) -> Map.of("note", "two"));
		assertThat(bounded.load("t1").values()).containsEntry("note", "one");
		bounded.update("t3", (values) -> Map.of("note", "three"));
		assertThat(bounded.size()).isEqualTo(2);
		assertThat(bounded.load("t2").version()).isZero();
		assertThat(bounded.load("t1").values()).containsEntry("note", "one");
		assertThat(bounded.load("t3").values()).containsEntry("note", "three");
	}

	@Test
	void aForgottenThreadStartsAgainFromEmpty() {
		InMemoryThreadStore bounded = new InMemoryThreadStore(1);
		ThreadMetadata first = bounded.update("t1", (values) -> Map.of("note", "one"));
		bounded.update("t2", (values) -> Map.of("note", "two"));
		assertThat(bounded.compareAndSet(first, Map.of("note", "stale"))).isFalse();
		assertThat(bounded.update("t1", (values) -> with(values, "note", "again")).version()).isEqualTo(1);
	}

	@Test
	void maxThreadsMustBePositive() {
		assertThatIllegalArgumentException().isThrownBy(() -> new InMemoryThreadStore(0))
			.withMessageContaining("maxThreads");
	}

	@Test
	void aStaleCompareAndSetWritesNothing() {
		ThreadMetadata stale = this.store.load("t1");
		this.store.update("t1", (values) -> with(values, "a", 1));
		assertThat(this.store.compareAndSet(stale, Map.of("a", 2))).isFalse();
		assertThat(this.store.load("t1").values()).containsEntry("a", 1);
	}

	@Test
	void aChangeThatThrowsChangesNothing() {
		this.store.update("t1", (values) -> with(values, "a", 1));
		assertThatIllegalStateException().isThrownBy(() -> this.store.update("t1", (values) -> {
			throw new IllegalStateException("invalid");
		}));
		assertThat(this.store.load("t1").values()).containsExactly(Map.entry("a", 1));
		assertThat(this.store.load("t1").version()).isEqualTo(1);
	}

	@Test
	void refusesValuesThatAreNotJson() {
		assertThatIllegalArgumentException()
			.isThrownBy(() -> this.store.update("t1", (values) -> Map.of("when", new Object())))
			.withMessageContaining("'when'")
			.withMessageContaining("only maps, lists, strings, numbers, booleans and null");
		assertThat(this.store.load("t1").version()).isZero();
	}

	@Test
	void storedValuesCannotBeChangedBehindTheStoresBack() {
		List<Object> todos = new ArrayList<>(List.of("a"));
		this.store.update("t1", (values) -> with(values, "todos", todos));
		todos.add("b");
		assertThat(this.store.load("t1").get("todos")).isEqualTo(List.of("a"));
	}

	@Test
	void eightConcurrentWritersToOneThreadLoseNoUpdate() throws Exception {
		assertNoLostUpdate(this.store);
	}

	static void assertNoLostUpdate(ThreadStore store) throws Exception {
		int writers = 8;
		int updatesEach = 50;
		ExecutorService executor = Executors.newFixedThreadPool(writers);
		CountDownLatch start = new CountDownLatch(1);
		try {
			List<Future<?>> futures = new ArrayList<>();
			for (int w = 0; w < writers; w++) {
				String writer = "writer-" + w;
				futures.add(executor.submit(() -> {
					start.await();
					for (int i = 0; i < updatesEach; i++) {
						store.update("shared", (values) -> {
							Map<String, Object> changed = new LinkedHashMap<>(values);
							long count = (values.get("count") instanceof Number n) ? n.longValue() : 0;
							changed.put("count", count + 1);
							List<Object> seen = new ArrayList<>(
									(values.get(writer) instanceof List<?> l) ? l : List.of());
							seen.add(seen.size());
							changed.put(writer, seen);
							return changed;
						});
					}
					return null;
				}));
			}
			start.countDown();
			for (Future<?> future : futures) {
				future.get(60, TimeUnit.SECONDS);
			}
		}
		finally {
			executor.shutdownNow();
		}
		ThreadMetadata metadata = store.load("shared");
		assertThat(((Number) metadata.get("count")).longValue()).isEqualTo(writers * updatesEach);
		assertThat(metadata.version()).isEqualTo(writers * updatesEach);
		for (int w = 0; w < writers; w++) {
			assertThat((List<?>) metadata.get("writer-" + w)).hasSize(updatesEach);
		}
	}

	private static Map<String, Object> with(Map<String, ?> values, String key, Object value) {
		Map<String, Object> changed = new LinkedHashMap<>(values);
		changed.put(key, value);
		return changed;
	}

}
