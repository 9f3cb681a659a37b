package dev.agentmiddleware.autoconfigure.approval;

import org.springframework.security.config.Customizer;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.config.annotation.web.configurers.AbstractHttpConfigurer;
import org.springframework.security.web.SecurityFilterChain;

/**
 * The security of the approval console and REST API: only users with the approver role see or decide approvals,
 * anonymous requests get 401. Users authenticate with HTTP Basic. Spring Security's CSRF token is not used here:
 * every decision is a POST that must carry {@code application/json}, which a browser does not send across origins
 * without a CORS preflight that this application does not allow.
 */
final class ApprovalSecurity {

	/** Ahead of Spring Boot's default chain and of unordered application chains. */
	static final int ORDER = org.springframework.core.Ordered.LOWEST_PRECEDENCE - 20;

	private ApprovalSecurity() {
	}

	static SecurityFilterChain filterChain(HttpSecurity http, ApprovalProperties.Web web) throws Exception {
		String path = web.getPath();
		String role = web.getRole().startsWith("ROLE_") ? web.getRole().substring("ROLE_".length()) : web.getRole();
		return http.securityMatcher(path, path + "/**")
			.authorizeHttpRequests((requests) -> requests.anyRequest().hasRole(role))
			.httpBasic(Customizer.withDefaults())
			.csrf(AbstractHttpConfigurer::disable)
			.build();
	}

}
