package dev.agentmiddleware.autoconfigure.approval.web;

import dev.agentmiddleware.audit.AuditStore;
import dev.agentmiddleware.audit.AuditTrail;
import dev.agentmiddleware.autoconfigure.audit.AuditAutoConfiguration;
import dev.agentmiddleware.autoconfigure.audit.AuditProperties;
import dev.agentmiddleware.autoconfigure.internal.BearerTokenRequirements;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.beans.factory.ObjectProvider;
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
import org.springframework.security.config.Customizer;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.config.annotation.web.configurers.AbstractHttpConfigurer;
import org.springframework.security.core.userdetails.UserDetailsService;
import org.springframework.security.oauth2.jwt.JwtDecoder;
import org.springframework.security.oauth2.server.resource.authentication.JwtAuthenticationConverter;
import org.springframework.security.oauth2.server.resource.authentication.JwtAuthenticationProvider;
import org.springframework.security.web.SecurityFilterChain;
import org.springframework.web.servlet.DispatcherServlet;

/**
 * The audit trail's REST API and JSON Lines export ({@link AuditController}, at
 * {@code agent.middleware.audit.web.path}), for users with the auditor role
 * ({@code agent.middleware.audit.web.role}) only. Fails closed: without Spring Security
 * the API is not served, and startup says so; anonymous requests get 401, users without
 * the role 403. Users log in with HTTP Basic, as the approval console's do (the
 * application's users, else {@code spring.security.user.*}); with
 * {@code agent.middleware.audit.web.token-authority} set and a {@code JwtDecoder} (an
 * OAuth2 resource server), a bearer token with that authority reads it too, checked as
 * the approval chain checks its tokens. With the approval console served, the console
 * gets an audit tab for those users ({@link AuditTab}).
 */
@AutoConfiguration(after = { AuditAutoConfiguration.class, ApprovalWebAutoConfiguration.class }, afterName = {
		"org.springframework.boot.security.autoconfigure.web.servlet.ServletWebSecurityAutoConfiguration",
		"org.springframework.boot.security.autoconfigure.actuate.web.servlet.ManagementWebSecurityAutoConfiguration" })
@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
@ConditionalOnClass(DispatcherServlet.class)
@ConditionalOnBean(AuditTrail.class)
@ConditionalOnBooleanProperty(name = AuditProperties.PREFIX + ".web.enabled", matchIfMissing = true)
@EnableConfigurationProperties(AuditProperties.class)
public final class AuditWebAutoConfiguration {

	private static final Logger logger = LoggerFactory.getLogger(AuditWebAutoConfiguration.class);

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnMissingClass("org.springframework.security.web.SecurityFilterChain")
	static class NotServedWithoutSecurity {

		NotServedWithoutSecurity(AuditProperties properties) {
			logger.warn(
					"The audit REST API at {} is not served: it needs Spring Security, to let only the '{}' role "
							+ "read the audit trail (add spring-boot-starter-security, or set {}.web.enabled=false to "
							+ "silence this)",
					properties.getWeb().getPath(), properties.getWeb().getRole(), AuditProperties.PREFIX);
		}

	}

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass({ SecurityFilterChain.class, HttpSecurity.class })
	@ConditionalOnBean(HttpSecurity.class)
	static class SecuredAuditConfiguration {

		@Bean
		@ConditionalOnMissingBean
		AuditController auditController(AuditStore store) {
			return new AuditController(store);
		}

		@Bean
		AuditTab auditTab(AuditProperties properties) {
			return new AuditTab(properties.getWeb().getPath(), "ROLE_" + role(properties.getWeb()));
		}

		@Bean
		@Order(ApprovalSecurity.ORDER - 1)
		@ConditionalOnMissingBean(name = "auditSecurityFilterChain")
		SecurityFilterChain auditSecurityFilterChain(HttpSecurity http, AuditProperties properties,
				ObjectProvider<ApproverLogins> approverLogins, ObjectProvider<AuditBearerTokens> bearerTokens)
				throws Exception {
			AuditProperties.Web web = properties.getWeb();
			AuditBearerTokens tokens = bearerTokens.getIfAvailable();
			String[] readers = (tokens != null && web.getTokenAuthority() != null)
					? new String[] { "ROLE_" + role(web), web.getTokenAuthority() }
					: new String[] { "ROLE_" + role(web) };
			http.securityMatcher(web.getPath(), web.getPath() + "/**")
				.authorizeHttpRequests((requests) -> requests.anyRequest().hasAnyAuthority(readers))
				.httpBasic(Customizer.withDefaults())
				.csrf(AbstractHttpConfigurer::disable);
			ApproverLogins logins = approverLogins.getIfAvailable();
			UserDetailsService propertyUsers = (logins != null) ? logins.propertyUsers() : null;
			if (propertyUsers != null) {
				http.userDetailsService(propertyUsers);
			}
			if (tokens != null) {
				http.oauth2ResourceServer((resourceServer) -> resourceServer
					.jwt((jwt) -> jwt.authenticationManager(tokens.authenticationManager())));
			}
			return http.build();
		}

		@Configuration(proxyBeanMethods = false)
		@ConditionalOnClass({ JwtDecoder.class, JwtAuthenticationProvider.class, OAuth2ResourceServerProperties.class })
		@ConditionalOnBean(JwtDecoder.class)
		@ConditionalOnProperty(prefix = AuditProperties.PREFIX + ".web", name = "token-authority")
		@EnableConfigurationProperties(OAuth2ResourceServerProperties.class)
		static class BearerTokenConfiguration {

			@Bean
			AuditBearerTokens auditBearerTokens(JwtDecoder decoder,
					ObjectProvider<JwtAuthenticationConverter> converter,
					ObjectProvider<BearerTokenRequirements> requirements,
					OAuth2ResourceServerProperties resourceServer) {
				return new AuditBearerTokens(
						BearerTokenAuthentication.of(decoder, converter, requirements, resourceServer));
			}

		}

		private static String role(AuditProperties.Web web) {
			return web.getRole().startsWith("ROLE_") ? web.getRole().substring("ROLE_".length()) : web.getRole();
		}

	}

}
