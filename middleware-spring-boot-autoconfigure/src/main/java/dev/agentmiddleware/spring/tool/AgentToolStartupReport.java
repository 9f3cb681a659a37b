package dev.agentmiddleware.spring.tool;

import java.util.Collection;
import java.util.stream.Collectors;

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
 * Says at startup what the middleware did: one INFO line naming the registered tools and where to see their chains
 * (the {@code agentmiddleware} actuator endpoint when it is exposed over HTTP), and, at DEBUG, each tool's chain.
 * <pre>
 * Agent tool middleware: 3 tools registered (get_weather, read_file, write_file); chains at /actuator/agentmiddleware
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
			logger.info("Agent tool middleware: {} tool{} registered ({}); {}", tools.size(),
					(tools.size() == 1) ? "" : "s", names.isEmpty() ? "none" : names, chains);
		}
		if (logger.isDebugEnabled()) {
			tools.forEach((tool) -> logger.debug("Agent tool chain: {}", tool.pipeline().describe()));
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
