package dev.agentmiddleware.autoconfigure.mcp;

import java.util.UUID;

import com.zaxxer.hikari.HikariDataSource;
import dev.agentmiddleware.testsupport.PostgresTestDatabase;
import org.jspecify.annotations.Nullable;

/**
 * The database that the instances in one test of a JDBC store share: an in-memory H2
 * database of its own, or a schema of its own on the test PostgreSQL server (in a test
 * marked {@code @RequiresService(TestService.POSTGRES)}). Each instance takes a
 * connection pool of its own from it. One per test, in an {@code @AutoClose} field:
 * closing it drops the PostgreSQL schema.
 */
final class McpTestDatabase implements AutoCloseable {

	private final String url;

	private final @Nullable PostgresTestDatabase postgres;

	private McpTestDatabase(String url, @Nullable PostgresTestDatabase postgres) {
		this.url = url;
		this.postgres = postgres;
	}

	/**
	 * A new in-memory H2 database, kept until the JVM ends.
	 * @param name the start of the database's name
	 * @return the database
	 */
	static McpTestDatabase h2(String name) {
		return new McpTestDatabase("jdbc:h2:mem:" + name + "-" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1", null);
	}

	/**
	 * A new, empty schema on the test PostgreSQL server.
	 * @return the database
	 */
	static McpTestDatabase postgres() {
		PostgresTestDatabase schema = PostgresTestDatabase.createSchema();
		return new McpTestDatabase(schema.jdbcUrl(), schema);
	}

	/**
	 * A connection pool of its own to this database, as every instance has.
	 * @param maximumPoolSize the most connections it opens
	 * @return a new pool, for the caller to close
	 */
	HikariDataSource pool(int maximumPoolSize) {
		HikariDataSource pool = new HikariDataSource();
		pool.setJdbcUrl(this.url);
		if (this.postgres != null) {
			pool.setUsername(this.postgres.username());
			pool.setPassword(this.postgres.password());
		}
		pool.setMaximumPoolSize(maximumPoolSize);
		return pool;
	}

	@Override
	public void close() {
		if (this.postgres != null) {
			this.postgres.close();
		}
	}

}
