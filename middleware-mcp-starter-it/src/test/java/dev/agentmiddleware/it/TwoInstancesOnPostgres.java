package dev.agentmiddleware.it;

import java.util.ArrayList;
import java.util.List;

import javax.sql.DataSource;

import dev.agentmiddleware.testsupport.PostgresTestDatabase;

import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.jdbc.datasource.SimpleDriverDataSource;

/**
 * Two instances of a fresh application on the MCP starter sharing one fresh PostgreSQL
 * schema and one {@code requestState} key, as two replicas of a deployment do; the schema
 * is dropped on {@link #close()}.
 *
 * <pre>{@code
 * instances = TwoInstancesOnPostgres.start(List.of(FreshMcpApplication.class, Tools.class), "server.port=0");
 * call(instances.a(), ...);
 * call(instances.b(), ...);
 * }</pre>
 */
final class TwoInstancesOnPostgres implements AutoCloseable {

	/** The key both instances seal {@code requestState}s with. */
	static final String REQUEST_STATE_SECRET = "dGVzdC1yZXF1ZXN0LXN0YXRlLWtleS0zMi1ieXRlcyE=";

	private final PostgresTestDatabase database;

	private final DataSource dataSource;

	private final List<ConfigurableApplicationContext> instances = new ArrayList<>(2);

	private TwoInstancesOnPostgres(PostgresTestDatabase database) {
		this.database = database;
		this.dataSource = new SimpleDriverDataSource(new org.postgresql.Driver(), database.jdbcUrl(),
				database.username(), database.password());
	}

	/**
	 * Creates the schema and starts the two instances, each with the schema as its
	 * {@code DataSource}, the shared key and the given properties.
	 * @param sources the application's configuration classes
	 * @param properties further properties of both instances
	 * @return the instances, started
	 */
	static TwoInstancesOnPostgres start(List<Class<?>> sources, String... properties) {
		TwoInstancesOnPostgres instances = new TwoInstancesOnPostgres(PostgresTestDatabase.createSchema());
		try {
			instances.instances.add(instances.startOne(sources, properties));
			instances.instances.add(instances.startOne(sources, properties));
			return instances;
		}
		catch (RuntimeException ex) {
			instances.close();
			throw ex;
		}
	}

	ConfigurableApplicationContext a() {
		return this.instances.get(0);
	}

	ConfigurableApplicationContext b() {
		return this.instances.get(1);
	}

	DataSource dataSource() {
		return this.dataSource;
	}

	@Override
	public void close() {
		this.instances.forEach(ConfigurableApplicationContext::close);
		this.database.close();
	}

	private ConfigurableApplicationContext startOne(List<Class<?>> sources, String... properties) {
		return new SpringApplicationBuilder(sources.toArray(Class<?>[]::new)).initializers((context) -> {
			context.getBeanFactory().registerSingleton("dataSource", this.dataSource);
			context.getBeanFactory()
				.registerSingleton(
						McpSessionsAcrossInstancesIntegrationTests.ExcludeOtherTestsConfigurations.class.getName(),
						new McpSessionsAcrossInstancesIntegrationTests.ExcludeOtherTestsConfigurations());
		})
			.properties("server.port=0", "spring.main.banner-mode=off",
					"agent.middleware.mcp.request-state.secret=" + REQUEST_STATE_SECRET)
			.properties(properties)
			.run();
	}

}
