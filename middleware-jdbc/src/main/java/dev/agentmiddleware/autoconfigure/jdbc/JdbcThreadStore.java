package dev.agentmiddleware.autoconfigure.jdbc;

import dev.agentmiddleware.autoconfigure.internal.IdDigests;
import java.nio.charset.StandardCharsets;
import java.sql.DatabaseMetaData;
import java.time.Clock;
import java.time.OffsetDateTime;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

import javax.sql.DataSource;

import dev.agentmiddleware.thread.ThreadStore;
import dev.agentmiddleware.thread.ThreadStore.ThreadMetadata;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.core.io.ClassPathResource;
import org.springframework.dao.DuplicateKeyException;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.jdbc.support.JdbcUtils;
import org.springframework.util.StreamUtils;

/**
 * A {@link ThreadStore} in a relational database (H2 or PostgreSQL), through Spring's
 * {@link JdbcClient}, so thread metadata survives restarts and is shared by every
 * instance of the application.
 *
 * <p>
 * One row per thread in {@code agent_thread_metadata}: the metadata as JSON text and a
 * version. A write is an {@code INSERT} for a new thread and an
 * {@code UPDATE ... WHERE version = ?} otherwise, so of two concurrent writers exactly
 * one succeeds and the other retries with the newer metadata
 * ({@link ThreadStore#update}).
 *
 * <p>
 * A row is keyed by the SHA-256 of the thread id ({@link IdDigests#of}, 64 hex digits,
 * the width of column {@code thread_id}), never by the id itself: on the MCP path the
 * thread id is the session id, a bearer secret, and a conversation id of any length fits.
 * The table is read only by thread id, so nothing needs the id back; a row written under
 * a raw id by an earlier version is no longer found. <pre>{@code
 * JdbcThreadStore store = new JdbcThreadStore(JdbcClient.create(dataSource), JsonMapper.shared(), Clock.systemUTC());
 * store.initializeSchema(dataSource);
 * }</pre>
 */
public final class JdbcThreadStore implements ThreadStore {

	private static final TypeReference<LinkedHashMap<String, @Nullable Object>> MAP = new TypeReference<>() {
	};

	private final JdbcClient jdbc;

	private final JsonMapper jsonMapper;

	private final Clock clock;

	/**
	 * Creates the store.
	 * @param jdbc the client of the database holding {@code agent_thread_metadata}
	 * @param jsonMapper reads and writes the metadata as JSON
	 * @param clock stamps each write
	 */
	public JdbcThreadStore(JdbcClient jdbc, JsonMapper jsonMapper, Clock clock) {
		this.jdbc = jdbc;
		this.jsonMapper = jsonMapper;
		this.clock = clock;
	}

	/**
	 * Creates {@code agent_thread_metadata} unless it exists, with the schema for the
	 * database's platform.
	 * @param dataSource the database
	 * @throws IllegalStateException if the database is neither H2 nor PostgreSQL
	 */
	public void initializeSchema(DataSource dataSource) {
		String product;
		try {
			product = JdbcUtils.extractDatabaseMetaData(dataSource, DatabaseMetaData::getDatabaseProductName);
		}
		catch (Exception ex) {
			throw new IllegalStateException("Could not determine the database of the thread store", ex);
		}
		String platform = product.toLowerCase(Locale.ROOT).contains("postgres") ? "postgresql"
				: product.toLowerCase(Locale.ROOT).contains("h2") ? "h2" : null;
		if (platform == null) {
			throw new IllegalStateException("No thread store schema for " + product + " (H2 and PostgreSQL have one); "
					+ "create agent_thread_metadata yourself and set agent.middleware.threads.jdbc.initialize-schema=false");
		}
		try {
			String sql = StreamUtils.copyToString(
					new ClassPathResource("thread/schema-" + platform + ".sql", JdbcThreadStore.class).getInputStream(),
					StandardCharsets.UTF_8);
			this.jdbc.sql(sql).update();
		}
		catch (java.io.IOException ex) {
			throw new IllegalStateException("Could not read the thread store schema", ex);
		}
	}

	@Override
	public ThreadMetadata load(String threadId) {
		Optional<ThreadMetadata> row = this.jdbc
			.sql("SELECT metadata, version FROM agent_thread_metadata WHERE thread_id = ?")
			.param(IdDigests.of(threadId))
			.query((rs, rowNum) -> new ThreadMetadata(threadId, this.jsonMapper.readValue(rs.getString(1), MAP),
					rs.getLong(2)))
			.optional();
		return row.orElseGet(() -> ThreadMetadata.empty(threadId));
	}

	@Override
	public boolean compareAndSet(ThreadMetadata current, Map<String, ? extends @Nullable Object> values) {
		// Validates the values as the in-memory store does before anything is written.
		ThreadMetadata next = new ThreadMetadata(current.threadId(), new LinkedHashMap<>(values),
				current.version() + 1);
		String json = this.jsonMapper.writeValueAsString(next.values());
		OffsetDateTime now = OffsetDateTime.now(this.clock);
		if (current.version() == 0) {
			try {
				return this.jdbc.sql(
						"INSERT INTO agent_thread_metadata (thread_id, metadata, version, updated_at) VALUES (?, ?, ?, ?)")
					.params(IdDigests.of(current.threadId()), json, next.version(), now)
					.update() == 1;
			}
			catch (DuplicateKeyException ex) {
				return false;
			}
		}
		return this.jdbc
			.sql("UPDATE agent_thread_metadata SET metadata = ?, version = ?, updated_at = ? "
					+ "WHERE thread_id = ? AND version = ?")
			.params(json, next.version(), now, IdDigests.of(current.threadId()), current.version())
			.update() == 1;
	}

}
