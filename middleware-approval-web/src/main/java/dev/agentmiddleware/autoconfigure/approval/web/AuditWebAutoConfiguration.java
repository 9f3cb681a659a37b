package dev.agentmiddleware.autoconfigure.approval.web;

import dev.agentmiddleware.audit.AuditStore;
import dev.agentmiddleware.audit.AuditTrail;
import dev.agentmiddleware.autoconfigure.audit.AuditAutoConfiguration;
import dev.agentmiddleware.autoconfigure.audit.AuditProperties;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.annotation.Order;
import org.springframework.security.config.Customizer;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.config.annotation.web.configurers.AbstractHttpConfigurer;
import org.springframework.security.core.userdetails.UserDetailsService;
import org.springframework.security.web.SecurityFilterChain;
import org.springframework.web.servlet.DispatcherServlet;

/**
 * The audit trail's REST API and JSON Lines export ({@link AuditController}, at
 * {@code agent.middleware.audit.web.path}), for users with the auditor role
 * ({@code agent.middleware.audit.web.role}) only. Fails closed: without Spring Security
 * the API is not served, and startup says so; anonymous requests get 401, users without
 * the role 403. Users log in with HTTP Basic, as the approval console's do (the
 * application's users, else {@code spring.security.user.*}). With the approval console
 * served, the console gets an audit tab for those users ({@link AuditTab}).
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
				ObjectProvider<ApproverLogins> approverLogins) throws Exception {
			AuditProperties.Web web = properties.getWeb();
			http.securityMatcher(web.getPath(), web.getPath() + "/**")
				.authorizeHttpRequests((requests) -> requests.anyRequest().hasAuthority("ROLE_" + role(web)))
				.httpBasic(Customizer.withDefaults())
				.csrf(AbstractHttpConfigurer::disable);
			ApproverLogins logins = approverLogins.getIfAvailable();
			UserDetailsService propertyUsers = (logins != null) ? logins.propertyUsers() : null;
			if (propertyUsers != null) {
				http.userDetailsService(propertyUsers);
			}
			return http.build();
		}

		private static String role(AuditProperties.Web web) {
			return web.getRole().startsWith("ROLE_") ? web.getRole().substring("ROLE_".length()) : web.getRole();
		}

	}

}
