package dev.agentmiddleware.autoconfigure.jdbc;

import dev.agentmiddleware.autoconfigure.internal.IdDigests;
import java.time.Clock;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import javax.sql.DataSource;

import dev.agentmiddleware.thread.ThreadStore;
import dev.agentmiddleware.thread.ThreadStore.ThreadMetadata;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.jdbc.core.simple.JdbcClient;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * What every database behind {@link JdbcThreadStore} must do.
 */
abstract class JdbcThreadStoreContract {

	abstract DataSource dataSource();

	JdbcThreadStore store() {
		JdbcThreadStore store = new JdbcThreadStore(JdbcClient.create(dataSource()), JsonMapper.shared(),
				Clock.systemUTC());
		store.initializeSchema(dataSource());
		return store;
	}

	@Test
	void anUnknownThreadHasEmptyMetadataAtVersionZero() {
		ThreadMetadata metadata = store().load("nobody");
		assertThat(metadata.values()).isEmpty();
		assertThat(metadata.version()).isZero();
	}

	@Test
	void writesNestedJsonAndReadsItBackVersioned() {
		JdbcThreadStore store = store();
		List<Map<String, Object>> todos = List.of(Map.of("id", "1", "text", "Read the file", "status", "pending"));
		store.update("t1", (values) -> with(values, "todos", todos));
		ThreadMetadata written = store.update("t1", (values) -> with(values, "flag", true));
		assertThat(written.version()).isEqualTo(2);
		ThreadMetadata read = store.load("t1");
		assertThat(read.version()).isEqualTo(2);
		assertThat(read.get("todos")).isEqualTo(todos);
		assertThat(read.get("flag")).isEqualTo(true);
		assertThat(store.load("t2").values()).isEmpty();
	}

	@Test
	void aStaleWriteIsRefusedAndChangesNothing() {
		JdbcThreadStore store = store();
		ThreadMetadata fresh = store.load("t1");
		assertThat(store.compareAndSet(fresh, Map.of("a", 1))).isTrue();
		assertThat(store.compareAndSet(fresh, Map.of("a", 2))).as("insert race lost").isFalse();
		ThreadMetadata current = store.load("t1");
		store.update("t1", (values) -> with(values, "a", 3));
		assertThat(store.compareAndSet(current, Map.of("a", 4))).as("update race lost").isFalse();
		assertThat(store.load("t1").get("a")).isEqualTo(3);
	}

	@Test
	void valuesThatAreNotJsonAreRefusedBeforeAnythingIsWritten() {
		JdbcThreadStore store = store();
		assertThatIllegalArgumentException()
			.isThrownBy(() -> store.update("t1", (values) -> Map.of("when", new Object())));
		assertThat(store.load("t1").version()).isZero();
	}

	@Test
	void theTableHoldsADigestOfTheThreadIdNotTheIdItselfWhileLoadsByTheIdWork() {
		// On the MCP path the thread id is the session id, a bearer secret
		JdbcThreadStore store = store();
		String sessionId = UUID.randomUUID().toString();
		store.update(sessionId, (values) -> with(values, "flag", true));
		assertThat(storedThreadIds()).containsExactly(IdDigests.of(sessionId));
		ThreadMetadata read = store.load(sessionId);
		assertThat(read.threadId()).isEqualTo(sessionId);
		assertThat(read.get("flag")).isEqualTo(true);
		assertThat(read.version()).isEqualTo(1);
		store.update(sessionId, (values) -> with(values, "flag", false));
		assertThat(store.load(sessionId).get("flag")).isEqualTo(false);
		assertThat(storedThreadIds()).hasSize(1);
	}

	@Test
	void threadIdsLongerThanTheColumnAreKeptApart() {
		JdbcThreadStore store = store();
		String prefix = "conversation-" + "c".repeat(300);
		store.update(prefix + "-a", (values) -> with(values, "owner", "a"));
		store.update(prefix + "-b", (values) -> with(values, "owner", "b"));
		assertThat(store.load(prefix + "-a").get("owner")).isEqualTo("a");
		assertThat(store.load(prefix + "-b").get("owner")).isEqualTo("b");
		assertThat(storedThreadIds()).hasSize(2);
	}

	@Test
	void eightConcurrentWritersToOneThreadLoseNoUpdate() throws Exception {
		ThreadStore store = store();
		int writers = 8;
		int updatesEach = 25;
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
							long count = (values.get("count") instanceof Number n) ? n.longValue() : 0;
							Map<String, Object> changed = with(values, "count", count + 1);
							List<Object> own = new ArrayList<>(
									(values.get(writer) instanceof List<?> l) ? l : List.of());
							own.add(own.size());
							changed.put(writer, own);
							return changed;
						});
					}
					return null;
				}));
			}
			start.countDown();
			for (Future<?> future : futures) {
				future.get(120, TimeUnit.SECONDS);
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

	private List<String> storedThreadIds() {
		return JdbcClient.create(dataSource())
			.sql("SELECT thread_id FROM agent_thread_metadata")
			.query(String.class)
			.list();
	}

	static Map<String, Object> with(Map<String, ?> values, String key, Object value) {
		Map<String, Object> changed = new LinkedHashMap<>(values);
		changed.put(key, value);
		return changed;
	}

}
