package dev.agentmiddleware.autoconfigure.approval.web;

import java.util.Arrays;

import dev.agentmiddleware.autoconfigure.approval.ApprovalProperties;
import org.jspecify.annotations.Nullable;

import org.springframework.core.Ordered;
import org.springframework.http.HttpMethod;
import org.springframework.security.authentication.AuthenticationManager;
import org.springframework.security.config.Customizer;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.config.annotation.web.configurers.AbstractHttpConfigurer;
import org.springframework.security.core.userdetails.UserDetailsService;
import org.springframework.security.web.SecurityFilterChain;

/**
 * The security of the approval console and REST API: only requests whose authentication
 * carries an approver authority ({@code ROLE_<role>}, or {@code web.token-authority}) see
 * or decide approvals, anonymous requests get 401. Users authenticate with HTTP Basic
 * (the application's users, else {@code spring.security.user.*}), and, when
 * {@code web.token-authority} is set and the application has a {@code JwtDecoder}, with a
 * bearer token. Spring Security's CSRF token is not used here: every decision is a POST
 * that must carry {@code application/json}, which a browser does not send across origins
 * without a CORS preflight that this application does not allow. With the audit trail's
 * API served, auditors may open the console page too (it holds no data): they see its
 * audit tab, and the approval API still answers them 403.
 */
final class ApprovalSecurity {

	/** Ahead of Spring Boot's default chain and of unordered application chains. */
	static final int ORDER = Ordered.LOWEST_PRECEDENCE - 20;

	private ApprovalSecurity() {
	}

	/**
	 * Builds the filter chain.
	 * @param http the security builder
	 * @param web the approval web settings
	 * @param logins who can log in
	 * @param bearerTokens authenticates bearer tokens, or {@code null} to accept none
	 * @param auditTab the console's audit tab, or {@code null} when the audit trail's API
	 * is not served
	 * @return the filter chain
	 * @throws Exception if the chain cannot be built
	 */
	static SecurityFilterChain filterChain(HttpSecurity http, ApprovalProperties.Web web, ApproverLogins logins,
			@Nullable AuthenticationManager bearerTokens, @Nullable AuditTab auditTab) throws Exception {
		String path = web.getPath();
		String[] approvers = logins.approverAuthorities();
		http.securityMatcher(path, path + "/**").authorizeHttpRequests((requests) -> {
			if (auditTab != null) {
				String[] consoleReaders = Arrays.copyOf(approvers, approvers.length + 1);
				consoleReaders[approvers.length] = auditTab.authority();
				requests.requestMatchers(HttpMethod.GET, path + "/console").hasAnyAuthority(consoleReaders);
			}
			requests.anyRequest().hasAnyAuthority(approvers);
		}).httpBasic(Customizer.withDefaults()).csrf(AbstractHttpConfigurer::disable);
		UserDetailsService propertyUsers = logins.propertyUsers();
		if (propertyUsers != null) {
			http.userDetailsService(propertyUsers);
		}
		if (bearerTokens != null) {
			http.oauth2ResourceServer(
					(resourceServer) -> resourceServer.jwt((jwt) -> jwt.authenticationManager(bearerTokens)));
		}
		return http.build();
	}

}
