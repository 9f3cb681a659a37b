package dev.agentmiddleware.autoconfigure.mcp;

import java.util.concurrent.TimeUnit;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;

import org.springframework.beans.factory.ListableBeanFactory;

/**
 * Counts the requests for resources, prompts and completions in the application's
 * {@link MeterRegistry}, if it has one: a timer {@code agent.mcp.request} tagged
 * {@code mcp.method}, {@code mcp.target} and {@code outcome}. Loaded only when Micrometer
 * is on the classpath; the registry is looked up on the first request.
 */
final class McpFeatureMeter implements McpFeatureRequests.Meter {

	/** The name of the timer. */
	static final String METER_NAME = "agent.mcp.request";

	private final ListableBeanFactory beanFactory;

	McpFeatureMeter(ListableBeanFactory beanFactory) {
		this.beanFactory = beanFactory;
	}

	@Override
	public void record(String method, String target, String outcome, long nanos) {
		MeterRegistry registry = this.beanFactory.getBeanProvider(MeterRegistry.class).getIfUnique();
		if (registry != null) {
			Timer.builder(METER_NAME)
				.description("Requests for resources, prompts and completions served over MCP")
				.tag("mcp.method", method)
				.tag("mcp.target", target)
				.tag("outcome", outcome)
				.register(registry)
				.record(nanos, TimeUnit.NANOSECONDS);
		}
	}

}
