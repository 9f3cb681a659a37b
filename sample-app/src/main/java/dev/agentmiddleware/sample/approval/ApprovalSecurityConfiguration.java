package dev.agentmiddleware.sample.approval;

import dev.agentmiddleware.autoconfigure.approval.ApprovalProperties;
import dev.agentmiddleware.autoconfigure.audit.AuditProperties;

import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.config.annotation.web.configurers.AbstractHttpConfigurer;
import org.springframework.security.core.userdetails.User;
import org.springframework.security.crypto.factory.PasswordEncoderFactories;
import org.springframework.security.crypto.password.PasswordEncoder;
import org.springframework.security.provisioning.InMemoryUserDetailsManager;
import org.springframework.security.web.SecurityFilterChain;

/**
 * Security of the sample: the starter's own filter chains protect the approval console
 * and REST API (only users with the approver role,
 * {@code agent.middleware.approval.web.role}) and the audit trail's REST API (only users
 * with the auditor role, {@code agent.middleware.audit.web.role}); this chain lets every
 * other request through as before, so MCP clients and Actuator need no login. In a real
 * deployment, protect those too: with {@code spring.security.oauth2.resourceserver.jwt.*}
 * set, the starter's own {@code mcpSecurityFilterChain} takes {@code /mcp} ahead of this
 * chain and requires a bearer token there.
 */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties({ ApproverProperties.class, AuditorProperties.class })
class ApprovalSecurityConfiguration {

	@Bean
	SecurityFilterChain sampleSecurityFilterChain(HttpSecurity http) throws Exception {
		// MCP clients POST JSON-RPC without CSRF tokens; nothing here is protected by a
		// browser session.
		return http.authorizeHttpRequests((requests) -> requests.anyRequest().permitAll())
			.csrf(AbstractHttpConfigurer::disable)
			.build();
	}

	@Bean
	InMemoryUserDetailsManager approverUsers(ApproverProperties approver, ApprovalProperties approval,
			AuditorProperties auditor, AuditProperties audit) {
		PasswordEncoder encoder = PasswordEncoderFactories.createDelegatingPasswordEncoder();
		return new InMemoryUserDetailsManager(
				User.withUsername(approver.username())
					.password(encoder.encode(approver.password()))
					.roles(approval.getWeb().getRole())
					.build(),
				User.withUsername(auditor.username())
					.password(encoder.encode(auditor.password()))
					.roles(audit.getWeb().getRole())
					.build());
	}

}
