package dev.agentmiddleware.autoconfigure.approval;

import java.net.URI;
import java.time.Clock;

import javax.sql.DataSource;

import dev.agentmiddleware.approval.ApprovalAuditListener;
import dev.agentmiddleware.approval.ApprovalMiddleware;
import dev.agentmiddleware.approval.ApprovalProvider;
import dev.agentmiddleware.approval.ApprovalProvider.ApprovalCallback;
import dev.agentmiddleware.approval.ApprovalProvider.ApprovalQueueProvider;
import dev.agentmiddleware.approval.ApprovalProvider.CallbackApprovalProvider;
import dev.agentmiddleware.approval.ApprovalProvider.CompositeApprovalProvider;
import dev.agentmiddleware.approval.ApprovalRules;
import dev.agentmiddleware.approval.ApprovalStore;
import dev.agentmiddleware.approval.ArgumentsBinder;
import dev.agentmiddleware.approval.InMemoryApprovalStore;
import dev.agentmiddleware.autoconfigure.AgentMiddlewareAutoConfiguration;
import dev.agentmiddleware.autoconfigure.ConditionalOnStoreType;
import dev.agentmiddleware.autoconfigure.ConditionalOnStoreType.StoreType;
import dev.agentmiddleware.autoconfigure.actuate.AgentMiddlewareEndpointContributor.PolicyEndpointContributor;
import dev.agentmiddleware.autoconfigure.internal.BearerTokenRequirements;
import dev.agentmiddleware.autoconfigure.tool.AgentToolRegistry;
import dev.agentmiddleware.autoconfigure.tool.RegisteredTool;
import dev.agentmiddleware.autoconfigure.tool.ToolNameReferences;
import dev.agentmiddleware.metrics.MiddlewareMetrics;
import dev.agentmiddleware.redaction.SecretRedactor;
import io.micrometer.core.instrument.MeterRegistry;
import io.modelcontextprotocol.server.McpSyncServerExchange;
import io.modelcontextprotocol.spec.McpServerTransportProviderBase;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.security.oauth2.server.resource.autoconfigure.OAuth2ResourceServerProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.annotation.Order;
import org.springframework.core.env.Environment;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.oauth2.jwt.JwtDecoder;
import org.springframework.security.oauth2.server.resource.authentication.JwtAuthenticationConverter;
import org.springframework.security.oauth2.server.resource.authentication.JwtAuthenticationProvider;
import org.springframework.security.web.SecurityFilterChain;
import org.springframework.web.servlet.DispatcherServlet;

/**
 * Auto-configuration of human approval: an {@link ApprovalMiddleware} gating the tools that
 * {@code agent.middleware.approval.policy}, {@code exempt-tools} and {@code sensitive-tools} select; its providers
 * in the order of {@code agent.middleware.approval.providers} (a user's {@link ApprovalCallback} bean, a link to
 * the console for MCP clients with URL elicitation, the in-app queue with its REST API and console, MCP form
 * elicitation); its store (JDBC when a {@link DataSource} exists, else in
 * memory); and, with Spring Security, a filter chain that lets only approvers see and decide approvals (users with the
 * approver role, and, with {@code web.token-authority}, bearer tokens with that authority).
 */
@AutoConfiguration(after = AgentMiddlewareAutoConfiguration.class,
		afterName = { "org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration",
				"org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration",
				"org.springframework.boot.micrometer.metrics.autoconfigure.export.simple.SimpleMetricsExportAutoConfiguration",
				"org.springframework.boot.security.autoconfigure.web.servlet.ServletWebSecurityAutoConfiguration",
				"org.springframework.boot.security.autoconfigure.actuate.web.servlet.ManagementWebSecurityAutoConfiguration",
				"org.springframework.boot.security.oauth2.server.resource.autoconfigure.OAuth2ResourceServerAutoConfiguration" })
@ConditionalOnBean(AgentToolRegistry.class)
@ConditionalOnBooleanProperty(name = ApprovalProperties.PREFIX + ".enabled", matchIfMissing = true)
@EnableConfigurationProperties(ApprovalProperties.class)
public final class ApprovalAutoConfiguration {

	private static final Logger logger = LoggerFactory.getLogger(ApprovalAutoConfiguration.class);

	@Bean
	@ConditionalOnMissingBean
	ApprovalRules approvalRules(ApprovalProperties properties) {
		return new ApprovalConfigurer(properties).rules();
	}

	@Bean
	ToolNameReferences approvalToolNames(ApprovalProperties properties) {
		return new ApprovalConfigurer(properties).toolNames();
	}

	@Bean
	ToolNameReferences approvalExemptToolNames(ApprovalProperties properties) {
		return new ApprovalConfigurer(properties).exemptToolNames();
	}

	@Bean
	ToolNameReferences approvalSensitiveToolNames(ApprovalProperties properties) {
		return new ApprovalConfigurer(properties).sensitiveToolNames();
	}

	@Bean(destroyMethod = "close")
	ApprovalThreads approvalThreads() {
		return new ApprovalThreads();
	}

	@Bean
	@ConditionalOnMissingBean
	ApprovalStore approvalStore(ApprovalProperties properties) {
		return new InMemoryApprovalStore(properties.getStore().getMaxAuditRecords(),
				properties.getStore().getMaxRemembered());
	}

	@Bean
	@ConditionalOnBean(ApprovalCallback.class)
	@ConditionalOnMissingBean(CallbackApprovalProvider.class)
	CallbackApprovalProvider callbackApprovalProvider(ApprovalCallback callback, ApprovalThreads approvalThreads) {
		return new CallbackApprovalProvider(callback, approvalThreads.executor());
	}

	@Bean
	@ConditionalOnMissingBean
	ArgumentsBinder approvalArgumentsBinder(ObjectProvider<AgentToolRegistry> registry) {
		return (tool, json) -> registry.getObject().get(tool.name()).bind(json);
	}

	@Bean
	@ConditionalOnMissingBean
	ApprovalMiddleware approvalMiddleware(ApprovalProperties properties, ApprovalRules rules,
			ObjectProvider<ApprovalProvider> providers, ApprovalStore store, ArgumentsBinder approvalArgumentsBinder,
			ObjectProvider<SecretRedactor> redactor, ObjectProvider<MiddlewareMetrics> metrics,
			ObjectProvider<ApprovalAuditListener> listeners, ObjectProvider<Clock> clock) {
		ApprovalMiddleware.Builder builder = new ApprovalConfigurer(properties).configure(ApprovalMiddleware.builder())
			.policies(rules)
			.provider(new CompositeApprovalProvider(ApprovalProviderOrder.ordered(providers.orderedStream().toList(), properties.getProviders())))
			.store(store)
			.argumentsBinder(approvalArgumentsBinder)
			.redactor(redactor.getIfAvailable(SecretRedactor::withDefaults))
			.metrics(metrics.getIfAvailable(() -> MiddlewareMetrics.NONE))
			.clock(clock.getIfAvailable(Clock::systemUTC));
		listeners.orderedStream().forEach(builder::auditListener);
		return builder.build();
	}

	@Bean
	ApprovalShutdown approvalShutdown(ApprovalMiddleware approvalMiddleware) {
		return new ApprovalShutdown(approvalMiddleware);
	}

	@Bean
	SmartInitializingSingleton approvalStartupReport(ObjectProvider<AgentToolRegistry> registry, ApprovalRules rules,
			ApprovalMiddleware approvalMiddleware, ApprovalProperties properties,
			ObjectProvider<ApprovalProvider> providers) {
		return new ApprovalStartupReport(registry, rules, approvalMiddleware, properties,
				() -> ApprovalProviderOrder.ordered(providers.orderedStream().toList(), properties.getProviders()));
	}

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass({ JdbcClient.class, DataSource.class })
	@ConditionalOnBean(DataSource.class)
	@ConditionalOnStoreType(prefix = ApprovalProperties.PREFIX, value = { StoreType.AUTO, StoreType.JDBC })
	static class JdbcStoreConfiguration {

		@Bean(destroyMethod = "close")
		@ConditionalOnMissingBean(ApprovalStore.class)
		JdbcApprovalStore approvalStore(DataSource dataSource, ApprovalProperties properties,
				ObjectProvider<Clock> clock) {
			return JdbcApprovalStoreStarter.started(dataSource, properties.getStore(),
					clock.getIfAvailable(Clock::systemUTC));
		}

	}

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnStoreType(prefix = ApprovalProperties.PREFIX, value = StoreType.JDBC)
	@ConditionalOnMissingBean(DataSource.class)
	static class MissingDataSourceConfiguration {

		MissingDataSourceConfiguration() {
			throw StoreType.missingDataSource(ApprovalProperties.PREFIX, "approval");
		}

	}

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
	@ConditionalOnClass(DispatcherServlet.class)
	@ConditionalOnBooleanProperty(name = ApprovalProperties.PREFIX + ".web.enabled", matchIfMissing = true)
	static class WebConfiguration {

		@Bean
		@ConditionalOnMissingBean
		ApprovalQueueProvider approvalQueueProvider() {
			return new ApprovalQueueProvider();
		}

		@Bean
		@ConditionalOnMissingBean
		ApprovalController approvalController(ApprovalStore store, ArgumentsBinder approvalArgumentsBinder,
				ObjectProvider<AgentToolRegistry> registry, ApprovalProperties properties, ObjectProvider<Clock> clock) {
			if (properties.isAllowSelfApproval()) {
				logger.warn("{}.allow-self-approval is true: the principal that made a call may approve it itself "
						+ "through {}; set it to false to have another approver decide", ApprovalProperties.PREFIX,
						properties.getWeb().getPath());
			}
			return new ApprovalController(store, approvalArgumentsBinder,
					(name) -> registry.getObject().find(name).map(RegisteredTool::descriptor),
					clock.getIfAvailable(Clock::systemUTC), properties.getWeb().getPath(),
					properties.getWeb().getRefreshInterval(), properties.isAllowSelfApproval());
		}

		@Configuration(proxyBeanMethods = false)
		@ConditionalOnClass(McpSyncServerExchange.class)
		static class LinkConfiguration {

			@Bean
			@ConditionalOnMissingBean
			McpUrlElicitationApprovalProvider mcpUrlElicitationApprovalProvider(ApprovalThreads approvalThreads,
					ApprovalProperties properties, ObjectProvider<McpServerTransportProviderBase> transport) {
				String publicUrl = properties.getWeb().getPublicUrl();
				return new McpUrlElicitationApprovalProvider(approvalThreads.executor(), properties.getWeb().getPath(),
						(publicUrl != null) ? URI.create(publicUrl) : null, transport::getIfUnique);
			}

		}

		@Configuration(proxyBeanMethods = false)
		@ConditionalOnMissingClass("org.springframework.security.web.SecurityFilterChain")
		static class UnprotectedWarning {

			UnprotectedWarning(ApprovalProperties properties) {
				logger.warn("The approval console and REST API at {} are open to anyone who can reach this "
						+ "application: add Spring Security to let only the '{}' role decide",
						properties.getWeb().getPath(), properties.getWeb().getRole());
			}

		}

	}

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
	@ConditionalOnClass({ SecurityFilterChain.class, HttpSecurity.class, DispatcherServlet.class })
	@ConditionalOnBean(HttpSecurity.class)
	@ConditionalOnBooleanProperty(name = ApprovalProperties.PREFIX + ".web.enabled", matchIfMissing = true)
	static class SecurityConfiguration {

		@Configuration(proxyBeanMethods = false)
		@ConditionalOnMissingBean(name = "approvalSecurityFilterChain")
		static class ApprovalFilterChainConfiguration {

			@Bean
			ApproverLogins approverLogins(ListableBeanFactory beanFactory, Environment environment,
					ApprovalProperties properties, ObjectProvider<ApprovalBearerTokens> bearerTokens) {
				return ApproverLogins.of(beanFactory, environment, properties.getWeb(),
						bearerTokens.getIfAvailable() != null);
			}

			@Bean
			@Order(ApprovalSecurity.ORDER)
			SecurityFilterChain approvalSecurityFilterChain(HttpSecurity http, ApprovalProperties properties,
					ApproverLogins approverLogins, ObjectProvider<ApprovalBearerTokens> bearerTokens)
					throws Exception {
				ApprovalBearerTokens tokens = bearerTokens.getIfAvailable();
				return ApprovalSecurity.filterChain(http, properties.getWeb(), approverLogins,
						(tokens != null) ? tokens.authenticationManager() : null);
			}

			@Bean
			SmartInitializingSingleton approverLoginsReport(ApproverLogins approverLogins,
					ObjectProvider<AgentToolRegistry> registry, ApprovalRules rules, ApprovalProperties properties,
					ObjectProvider<ApprovalProvider> providers) {
				return () -> approverLogins.warnIfNobodyCanApprove(
						ApprovalStartupReport.gatedTools(registry.getObject(), rules),
						ApprovalProviderOrder.ordered(providers.orderedStream().toList(), properties.getProviders())
							.stream()
							.map(ApprovalProvider::name)
							.filter(ApprovalProviderOrder.WAITING_FOR_A_PERSON::contains)
							.toList());
			}

		}

		@Configuration(proxyBeanMethods = false)
		@ConditionalOnClass({ JwtDecoder.class, JwtAuthenticationProvider.class,
				OAuth2ResourceServerProperties.class })
		@ConditionalOnBean(JwtDecoder.class)
		@ConditionalOnProperty(prefix = ApprovalProperties.PREFIX + ".web", name = "token-authority")
		@EnableConfigurationProperties(OAuth2ResourceServerProperties.class)
		static class BearerTokenConfiguration {

			@Bean
			ApprovalBearerTokens approvalBearerTokens(JwtDecoder decoder,
					ObjectProvider<JwtAuthenticationConverter> converter,
					ObjectProvider<BearerTokenRequirements> requirements,
					OAuth2ResourceServerProperties resourceServer) {
				JwtAuthenticationProvider provider = new JwtAuthenticationProvider(decoder);
				provider.setJwtAuthenticationConverter(converter.getIfAvailable(JwtAuthenticationConverter::new));
				// The MCP endpoint's requirements where there is one, so that both take the same tokens
				BearerTokenRequirements checked = requirements.getIfAvailable(() -> BearerTokenRequirements
					.of(resourceServer.getJwt().getIssuerUri(), resourceServer.getJwt().getPrincipalClaimName()));
				return new ApprovalBearerTokens(
						(authentication) -> checked.check(provider.authenticate(authentication)));
			}

		}

	}

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass(McpSyncServerExchange.class)
	static class McpElicitationConfiguration {

		@Bean
		@ConditionalOnMissingBean
		McpElicitationApprovalProvider mcpElicitationApprovalProvider(ApprovalThreads approvalThreads) {
			return new McpElicitationApprovalProvider(approvalThreads.executor());
		}

	}

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass(MeterRegistry.class)
	@ConditionalOnBean(MeterRegistry.class)
	static class MetricsConfiguration {

		@Bean
		@ConditionalOnMissingBean(name = "approvalOutcomeMetrics")
		ApprovalAuditListener approvalOutcomeMetrics(MeterRegistry meterRegistry) {
			return new ApprovalOutcomeCounter(meterRegistry);
		}

	}

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass(Endpoint.class)
	static class ApprovalEndpointConfiguration {

		@Bean
		@ConditionalOnMissingBean(name = "approvalEndpointContributor")
		PolicyEndpointContributor approvalEndpointContributor(ApprovalMiddleware approvalMiddleware,
				ApprovalProperties properties, ObjectProvider<Clock> clock) {
			return ApprovalEndpointContributor.of(approvalMiddleware, properties, clock.getIfAvailable(Clock::systemUTC));
		}

	}

}
