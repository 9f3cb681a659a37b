package dev.agentmiddleware.autoconfigure.tool;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.stream.Collectors;

import javax.sql.DataSource;

import dev.agentmiddleware.approval.ApprovalStore;
import dev.agentmiddleware.audit.AuditStore;
import dev.agentmiddleware.audit.InMemoryAuditStore;
import dev.agentmiddleware.approval.InMemoryApprovalStore;
import dev.agentmiddleware.thread.ThreadStore;
import dev.agentmiddleware.thread.ThreadStore.InMemoryThreadStore;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.boot.actuate.endpoint.EndpointId;
import org.springframework.boot.actuate.endpoint.web.PathMappedEndpoints;
import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.context.ApplicationContext;
import org.springframework.context.ApplicationListener;
import org.springframework.util.ClassUtils;

/**
 * Says at startup what the middleware did: one INFO line naming the registered tools,
 * where to see their chains (the {@code agentmiddleware} actuator endpoint when it is
 * exposed over HTTP) and which approval and thread stores are active ({@code memory},
 * {@code jdbc} with the database and the {@code DataSource} type, or the class of an
 * application's own store), and, at DEBUG, each tool's chain. <pre>
 * Agent tool middleware: 3 tools registered (get_weather, read_file, write_file); chains at /actuator/agentmiddleware;
 * approval store: jdbc (PostgreSQL, HikariDataSource); thread store: jdbc (PostgreSQL, HikariDataSource); audit store: jdbc (PostgreSQL, HikariDataSource)
 * </pre>
 */
final class AgentToolStartupReport implements ApplicationListener<ApplicationReadyEvent> {

	private static final Logger logger = LoggerFactory.getLogger(AgentToolStartupReport.class);

	private static final String ENDPOINT_ID = "agentmiddleware";

	private static final boolean ACTUATOR_PRESENT = ClassUtils.isPresent(
			"org.springframework.boot.actuate.endpoint.web.PathMappedEndpoints",
			AgentToolStartupReport.class.getClassLoader());

	private final AgentToolRegistry registry;

	AgentToolStartupReport(AgentToolRegistry registry) {
		this.registry = registry;
	}

	@Override
	public void onApplicationEvent(ApplicationReadyEvent event) {
		Collection<RegisteredTool> tools = this.registry.tools();
		if (logger.isInfoEnabled()) {
			String names = tools.stream().map(RegisteredTool::name).collect(Collectors.joining(", "));
			String path = ACTUATOR_PRESENT ? Actuator.path(event.getApplicationContext()) : null;
			String chains = (path != null) ? "chains at " + path
					: "chains logged at DEBUG by " + AgentToolStartupReport.class.getName()
							+ ", and served by the actuator endpoint '" + ENDPOINT_ID + "' once exposed";
			logger.info("Agent tool middleware: {} tool{} registered ({}); {}{}", tools.size(),
					(tools.size() == 1) ? "" : "s", names.isEmpty() ? "none" : names, chains,
					stores(event.getApplicationContext()));
		}
		if (logger.isDebugEnabled()) {
			tools.forEach((tool) -> logger.debug("Agent tool chain: {}", tool.pipeline().describe()));
		}
	}

	private static String stores(ApplicationContext context) {
		StringBuilder stores = new StringBuilder();
		Map<String, Object> named = new LinkedHashMap<>();
		named.put("approval store", context.getBeanProvider(ApprovalStore.class).getIfUnique());
		named.put("thread store", context.getBeanProvider(ThreadStore.class).getIfUnique());
		named.put("audit store", context.getBeanProvider(AuditStore.class).getIfUnique());
		// The database is asked for its name once, however many stores keep their state
		// in it
		String jdbc = null;
		for (Map.Entry<String, Object> entry : named.entrySet()) {
			Object store = entry.getValue();
			if (store == null) {
				continue;
			}
			String description = describe(store);
			if (description.equals("jdbc")) {
				jdbc = (jdbc != null) ? jdbc : jdbc(context);
				description = jdbc;
			}
			stores.append("; ").append(entry.getKey()).append(": ").append(description);
		}
		return stores.toString();
	}

	// Ours by name (the JDBC stores live in the JDBC store module, which depends on this
	// one).
	private static String describe(Object store) {
		if (store instanceof InMemoryApprovalStore || store instanceof InMemoryThreadStore
				|| store instanceof InMemoryAuditStore) {
			return "memory";
		}
		Class<?> type = ClassUtils.getUserClass(store);
		if (type.getName().startsWith("dev.agentmiddleware.") && type.getSimpleName().startsWith("Jdbc")) {
			return "jdbc";
		}
		return type.getName();
	}

	private static String jdbc(ApplicationContext context) {
		DataSource dataSource = context.getBeanProvider(DataSource.class).getIfUnique();
		return (dataSource != null)
				? "jdbc (" + database(dataSource) + ", " + ClassUtils.getUserClass(dataSource).getSimpleName() + ")"
				: "jdbc";
	}

	private static String database(DataSource dataSource) {
		try (Connection connection = dataSource.getConnection()) {
			return connection.getMetaData().getDatabaseProductName();
		}
		catch (SQLException | RuntimeException ex) {
			return "database not reachable";
		}
	}

	/**
	 * Kept apart so that the actuator classes load only when present.
	 */
	private static final class Actuator {

		static @Nullable String path(ApplicationContext context) {
			PathMappedEndpoints endpoints = context.getBeanProvider(PathMappedEndpoints.class).getIfAvailable();
			return (endpoints != null) ? endpoints.getPath(EndpointId.of(ENDPOINT_ID)) : null;
		}

	}

}
