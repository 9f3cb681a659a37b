package dev.agentmiddleware.testsupport;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Locale;
import java.util.UUID;

/**
 * A schema of its own on the test PostgreSQL server, so that test classes and concurrent
 * builds never see each other's tables. Use it from a test marked
 * {@code @RequiresService(TestService.POSTGRES)}: <pre>{@code
 * try (PostgresTestDatabase database = PostgresTestDatabase.createSchema()) {
 *     DataSource dataSource = new SimpleDriverDataSource(new org.postgresql.Driver(), database.jdbcUrl(),
 *             database.username(), database.password());
 *     ...
 * }
 * }</pre>
 */
public final class PostgresTestDatabase implements AutoCloseable {

	private final String schema;

	private PostgresTestDatabase(String schema) {
		this.schema = schema;
	}

	/**
	 * Creates a new, empty schema.
	 * @return the database handle; closing it drops the schema
	 */
	public static PostgresTestDatabase createSchema() {
		String schema = "t_" + UUID.randomUUID().toString().replace("-", "").substring(0, 16).toLowerCase(Locale.ROOT);
		execute("CREATE SCHEMA " + schema);
		return new PostgresTestDatabase(schema);
	}

	/**
	 * A JDBC URL whose connections use this schema.
	 * @return the URL
	 */
	public String jdbcUrl() {
		String base = baseUrl();
		return base + (base.contains("?") ? "&" : "?") + "currentSchema=" + this.schema;
	}

	/**
	 * The schema name.
	 * @return the schema
	 */
	public String schema() {
		return this.schema;
	}

	/**
	 * The user name.
	 * @return the user
	 */
	public String username() {
		return configuredUser();
	}

	/**
	 * The password.
	 * @return the password
	 */
	public String password() {
		return configuredPassword();
	}

	@Override
	public void close() {
		execute("DROP SCHEMA IF EXISTS " + this.schema + " CASCADE");
	}

	static String baseUrl() {
		return TestService.env("AGENTMW_TEST_POSTGRES_URL", "jdbc:postgresql://127.0.0.1:5432/agentmw");
	}

	static String configuredUser() {
		return TestService.env("AGENTMW_TEST_POSTGRES_USER", "agentmw");
	}

	static String configuredPassword() {
		return TestService.env("AGENTMW_TEST_POSTGRES_PASSWORD", "agentmw");
	}

	private static void execute(String sql) {
		try (Connection connection = DriverManager.getConnection(baseUrl(), configuredUser(), configuredPassword());
				Statement statement = connection.createStatement()) {
			statement.execute(sql);
		}
		catch (SQLException ex) {
			throw new IllegalStateException("Could not run '" + sql + "' on " + baseUrl() + ": " + ex.getMessage(), ex);
		}
	}

}
