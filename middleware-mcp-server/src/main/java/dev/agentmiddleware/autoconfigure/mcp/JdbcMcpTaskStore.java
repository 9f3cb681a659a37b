package dev.agentmiddleware.autoconfigure.mcp;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.UnaryOperator;

import javax.sql.DataSource;

import dev.agentmiddleware.autoconfigure.internal.IdDigests;
import io.modelcontextprotocol.json.McpJsonMapper;
import org.jspecify.annotations.Nullable;

import org.springframework.core.io.ClassPathResource;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.jdbc.datasource.init.ResourceDatabasePopulator;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The tasks of every instance on one database: a task is a row of table {@value #TABLE}
 * (the SHA-256 of its id, the task as JSON, when it expires), so that any instance
 * answers {@code tasks/get}, {@code tasks/update} and {@code tasks/cancel}. A change
 * reads the row with {@code SELECT ... FOR UPDATE} and writes it back in one transaction,
 * so that an answer delivered by {@code tasks/update} on one instance and a question the
 * running task asks on another are never lost. Expired rows are not found, and are
 * deleted by the first task created after each sweep interval (a minute). The table is
 * created when missing. <pre>{@code
 * McpTaskStore store = new JdbcMcpTaskStore(dataSource, jsonMapper, Clock.systemUTC());
 * }</pre>
 */
final class JdbcMcpTaskStore implements McpTaskStore {

	/** The table of the shared tasks. */
	static final String TABLE = "agent_mcp_task";

	private static final long SWEEP_INTERVAL_MILLIS = Duration.ofMinutes(1).toMillis();

	private final JdbcTemplate jdbc;

	private final TransactionTemplate transactions;

	private final McpJsonMapper jsonMapper;

	private final Clock clock;

	// When the next create deletes the expired rows (epoch milliseconds)
	private final AtomicLong nextSweep = new AtomicLong(Long.MIN_VALUE);

	/**
	 * Keeps the tasks in a database, creating table {@value #TABLE} when it is missing.
	 * @param dataSource the database every instance shares (PostgreSQL, or H2 for a
	 * single machine)
	 * @param jsonMapper writes and reads the tasks
	 * @param clock the clock of the expiry
	 */
	JdbcMcpTaskStore(DataSource dataSource, McpJsonMapper jsonMapper, Clock clock) {
		this.jdbc = new JdbcTemplate(dataSource);
		this.transactions = new TransactionTemplate(new DataSourceTransactionManager(dataSource));
		this.jsonMapper = jsonMapper;
		this.clock = clock;
		createSchema(dataSource);
	}

	private static void createSchema(DataSource dataSource) {
		boolean postgres;
		try (Connection connection = dataSource.getConnection()) {
			postgres = connection.getMetaData().getDatabaseProductName().toLowerCase(Locale.ROOT).contains("postgres");
		}
		catch (SQLException ex) {
			throw new IllegalStateException("The MCP task store cannot reach its database", ex);
		}
		String script = postgres ? "schema-tasks-postgresql.sql" : "schema-tasks-h2.sql";
		new ResourceDatabasePopulator(new ClassPathResource(script, JdbcMcpTaskStore.class)).execute(dataSource);
	}

	@Override
	public void create(McpTask task) {
		long now = this.clock.millis();
		long due = this.nextSweep.get();
		if (now >= due && this.nextSweep.compareAndSet(due, now + SWEEP_INTERVAL_MILLIS)) {
			this.jdbc.update("DELETE FROM " + TABLE + " WHERE expires_at <= ?", now);
		}
		this.jdbc.update("INSERT INTO " + TABLE + " (id, task, expires_at) VALUES (?, ?, ?)", IdDigests.of(task.id()),
				write(task), task.expiresAt());
	}

	@Override
	public @Nullable McpTask find(String id) {
		List<String> rows = this.jdbc.queryForList("SELECT task FROM " + TABLE + " WHERE id = ? AND expires_at > ?",
				String.class, IdDigests.of(id), this.clock.millis());
		return rows.isEmpty() ? null : read(rows.get(0));
	}

	@Override
	public @Nullable McpTask update(String id, UnaryOperator<McpTask> change) {
		String key = IdDigests.of(id);
		return this.transactions.execute((status) -> {
			List<String> rows = this.jdbc.queryForList(
					"SELECT task FROM " + TABLE + " WHERE id = ? AND expires_at > ? FOR UPDATE", String.class, key,
					this.clock.millis());
			if (rows.isEmpty()) {
				return null;
			}
			McpTask current = read(rows.get(0));
			McpTask changed = change.apply(current);
			if (!changed.equals(current)) {
				this.jdbc.update("UPDATE " + TABLE + " SET task = ?, expires_at = ? WHERE id = ?", write(changed),
						changed.expiresAt(), key);
			}
			return changed;
		});
	}

	private String write(McpTask task) {
		try {
			return this.jsonMapper.writeValueAsString(task.toMap());
		}
		catch (IOException ex) {
			throw new UncheckedIOException("An MCP task could not be written", ex);
		}
	}

	private McpTask read(String json) {
		try {
			return McpTask.fromMap(this.jsonMapper.readValue(json, StatelessMcpTasks.MAP));
		}
		catch (IOException ex) {
			throw new UncheckedIOException("An MCP task could not be read", ex);
		}
	}

}
