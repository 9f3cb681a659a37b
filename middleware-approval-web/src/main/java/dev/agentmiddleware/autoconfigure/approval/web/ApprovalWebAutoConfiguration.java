package dev.agentmiddleware.autoconfigure.approval.web;

import java.time.Clock;

import dev.agentmiddleware.approval.ApprovalMiddleware;
import dev.agentmiddleware.approval.ApprovalProvider.ApprovalQueueProvider;
import dev.agentmiddleware.approval.ApprovalStore;
import dev.agentmiddleware.approval.ArgumentsBinder;
import dev.agentmiddleware.autoconfigure.approval.ApprovalAutoConfiguration;
import dev.agentmiddleware.autoconfigure.approval.ApprovalProperties;
import dev.agentmiddleware.autoconfigure.approval.ApprovalProviders;
import dev.agentmiddleware.autoconfigure.internal.BearerTokenRequirements;
import dev.agentmiddleware.autoconfigure.tool.AgentToolRegistry;
import dev.agentmiddleware.autoconfigure.tool.RegisteredTool;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.SmartInitializingSingleton;
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
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.oauth2.jwt.JwtDecoder;
import org.springframework.security.oauth2.server.resource.authentication.JwtAuthenticationConverter;
import org.springframework.security.oauth2.server.resource.authentication.JwtAuthenticationProvider;
import org.springframework.security.web.SecurityFilterChain;
import org.springframework.web.servlet.DispatcherServlet;

/**
 * The approval web module: the in-app queue of approval requests
 * ({@link ApprovalQueueProvider}, provider {@code queue}), its REST API and console
 * ({@link ApprovalController}, at {@code agent.middleware.approval.web.path}), and, with
 * Spring Security, a filter chain that lets only approvers see and decide approvals
 * (users with the approver role, and, with {@code web.token-authority}, bearer tokens
 * with that authority). Without Spring Security it warns that the console is open to
 * anyone who can reach the application.
 */
@AutoConfiguration(after = ApprovalAutoConfiguration.class, afterName = {
		"org.springframework.boot.security.autoconfigure.web.servlet.ServletWebSecurityAutoConfiguration",
		"org.springframework.boot.security.autoconfigure.actuate.web.servlet.ManagementWebSecurityAutoConfiguration",
		"org.springframework.boot.security.oauth2.server.resource.autoconfigure.OAuth2ResourceServerAutoConfiguration" })
@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
@ConditionalOnClass(DispatcherServlet.class)
@ConditionalOnBean(ApprovalMiddleware.class)
@ConditionalOnBooleanProperty(name = ApprovalProperties.PREFIX + ".web.enabled", matchIfMissing = true)
public final class ApprovalWebAutoConfiguration {

	private static final Logger logger = LoggerFactory.getLogger(ApprovalWebAutoConfiguration.class);

	@Bean
	@ConditionalOnMissingBean
	ApprovalQueueProvider approvalQueueProvider() {
		return new ApprovalQueueProvider();
	}

	@Bean
	@ConditionalOnMissingBean
	ApprovalController approvalController(ApprovalStore store, ArgumentsBinder approvalArgumentsBinder,
			ObjectProvider<AgentToolRegistry> registry, ApprovalProperties properties, ObjectProvider<Clock> clock,
			ObjectProvider<AuditTab> auditTab) {
		if (properties.isAllowSelfApproval()) {
			logger.warn(
					"{}.allow-self-approval is true: the principal that made a call may approve it itself "
							+ "through {}; set it to false to have another approver decide",
					ApprovalProperties.PREFIX, properties.getWeb().getPath());
		}
		return new ApprovalController(store, approvalArgumentsBinder,
				(name) -> registry.getObject().find(name).map(RegisteredTool::descriptor),
				clock.getIfAvailable(Clock::systemUTC), properties.getWeb().getPath(),
				properties.getWeb().getRefreshInterval(), properties.isAllowSelfApproval(), auditTab.getIfAvailable());
	}

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnMissingClass("org.springframework.security.web.SecurityFilterChain")
	static class UnprotectedWarning {

		UnprotectedWarning(ApprovalProperties properties) {
			logger.warn(
					"The approval console and REST API at {} are open to anyone who can reach this "
							+ "application: add Spring Security to let only the '{}' role decide",
					properties.getWeb().getPath(), properties.getWeb().getRole());
		}

	}

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass({ SecurityFilterChain.class, HttpSecurity.class })
	@ConditionalOnBean(HttpSecurity.class)
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
					ApproverLogins approverLogins, ObjectProvider<ApprovalBearerTokens> bearerTokens,
					ObjectProvider<AuditTab> auditTab) throws Exception {
				ApprovalBearerTokens tokens = bearerTokens.getIfAvailable();
				return ApprovalSecurity.filterChain(http, properties.getWeb(), approverLogins,
						(tokens != null) ? tokens.authenticationManager() : null, auditTab.getIfAvailable());
			}

			@Bean
			SmartInitializingSingleton approverLoginsReport(ApproverLogins approverLogins,
					ObjectProvider<ApprovalProviders> approvalProviders) {
				return () -> approvalProviders.ifAvailable((providers) -> approverLogins
					.warnIfNobodyCanApprove(providers.gatedTools(), providers.waitingForAPerson()));
			}

		}

		@Configuration(proxyBeanMethods = false)
		@ConditionalOnClass({ JwtDecoder.class, JwtAuthenticationProvider.class, OAuth2ResourceServerProperties.class })
		@ConditionalOnBean(JwtDecoder.class)
		@ConditionalOnProperty(prefix = ApprovalProperties.PREFIX + ".web", name = "token-authority")
		@EnableConfigurationProperties(OAuth2ResourceServerProperties.class)
		static class BearerTokenConfiguration {

			@Bean
			ApprovalBearerTokens approvalBearerTokens(JwtDecoder decoder,
					ObjectProvider<JwtAuthenticationConverter> converter,
					ObjectProvider<BearerTokenRequirements> requirements,
					OAuth2ResourceServerProperties resourceServer) {
				return new ApprovalBearerTokens(
						BearerTokenAuthentication.of(decoder, converter, requirements, resourceServer));
			}

		}

	}

}
