package dev.agentmiddleware.autoconfigure.edge;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

import jakarta.servlet.Filter;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.Ordered;
import org.springframework.core.env.Environment;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Auto-configuration of the edge guard: the {@link HostOriginGuard} bean, from
 * {@code agent.middleware.edge.*} (or the former
 * {@code agent.middleware.mcp.transport.allowed-hosts} and {@code allowed-origins}),
 * which the MCP transport uses for {@code /mcp}; and, in a servlet web application, a
 * filter that applies it to the {@code agentmiddleware} actuator endpoint, the approval
 * API and console ({@code agent.middleware.approval.web.path}) and the paths listed in
 * {@code agent.middleware.edge.paths}. It runs before Spring Security, so a foreign
 * request is refused before anyone is asked to log in. It does not depend on the MCP
 * starter.
 */
@AutoConfiguration
@EnableConfigurationProperties(EdgeProperties.class)
public final class EdgeGuardAutoConfiguration {

	/**
	 * The filter's order: early, before Spring Security's filter chain, after the
	 * server's observation.
	 */
	public static final int FILTER_ORDER = Ordered.HIGHEST_PRECEDENCE + 10;

	private static final Logger logger = LoggerFactory.getLogger(EdgeGuardAutoConfiguration.class);

	private static final String LEGACY_PREFIX = "agent.middleware.mcp.transport.";

	@Bean
	@ConditionalOnMissingBean
	HostOriginGuard agentMiddlewareHostOriginGuard(EdgeProperties properties, Environment environment) {
		List<String> hosts = resolve(properties.getAllowedHosts(), "allowed-hosts", environment);
		List<String> origins = resolve(properties.getAllowedOrigins(), "allowed-origins", environment);
		return new HostOriginGuard((origins != null) ? origins : HostOriginGuard.LOCAL_ORIGINS,
				(hosts != null) ? hosts : HostOriginGuard.LOCAL_HOSTS);
	}

	// One list, from either key: set under both with different values is a mistake to
	// report, not to guess about
	private static @Nullable List<String> resolve(@Nullable List<String> edge, String name, Environment environment) {
		List<String> legacy = Binder.get(environment)
			.bind(LEGACY_PREFIX + name, Bindable.listOf(String.class))
			.orElse(null);
		if (legacy == null) {
			return edge;
		}
		if (edge != null && !Objects.equals(edge, legacy)) {
			throw new IllegalStateException(EdgeProperties.PREFIX + "." + name + " " + edge + " and " + LEGACY_PREFIX
					+ name + " " + legacy + " differ: set only " + EdgeProperties.PREFIX + "." + name
					+ ", which guards the MCP endpoint, the actuator endpoint and the approval API alike");
		}
		logger.warn("{}{} is deprecated: set {}.{} instead, which guards the MCP endpoint, the actuator endpoint "
				+ "and the approval API alike", LEGACY_PREFIX, name, EdgeProperties.PREFIX, name);
		return legacy;
	}

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
	@ConditionalOnClass({ Filter.class, OncePerRequestFilter.class, FilterRegistrationBean.class })
	static class EdgeGuardFilterConfiguration {

		@Bean
		@ConditionalOnMissingBean(name = "agentMiddlewareEdgeGuardFilter")
		FilterRegistrationBean<EdgeGuardFilter> agentMiddlewareEdgeGuardFilter(HostOriginGuard guard,
				EdgeProperties properties, Environment environment) {
			List<String> paths = new ArrayList<>();
			paths.add(environment.getProperty("agent.middleware.approval.web.path", "/agent/approvals"));
			String actuator = environment.getProperty("management.endpoints.web.base-path", "/actuator");
			paths.add((actuator.endsWith("/") ? actuator : actuator + "/") + environment
				.getProperty("management.endpoints.web.path-mapping.agentmiddleware", "agentmiddleware"));
			paths.addAll(properties.getPaths());
			FilterRegistrationBean<EdgeGuardFilter> registration = new FilterRegistrationBean<>(
					new EdgeGuardFilter(guard, paths));
			registration.setName("agentMiddlewareEdgeGuardFilter");
			registration.setOrder(FILTER_ORDER);
			return registration;
		}

	}

}
