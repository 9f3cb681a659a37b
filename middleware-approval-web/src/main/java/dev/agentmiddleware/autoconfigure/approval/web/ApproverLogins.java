package dev.agentmiddleware.autoconfigure.approval.web;

import dev.agentmiddleware.autoconfigure.approval.ApprovalProperties;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.beans.factory.BeanFactoryUtils;
import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.core.env.Environment;
import org.springframework.security.authentication.AuthenticationManager;
import org.springframework.security.authentication.AuthenticationProvider;
import org.springframework.security.core.userdetails.User;
import org.springframework.security.core.userdetails.UserDetails;
import org.springframework.security.core.userdetails.UserDetailsService;
import org.springframework.security.crypto.password.PasswordEncoder;
import org.springframework.security.provisioning.InMemoryUserDetailsManager;

/**
 * Who can log in to the approval console and REST API: the application's own users (a
 * {@link UserDetailsService}, an {@link AuthenticationProvider} or an
 * {@link AuthenticationManager} bean), else Spring Boot's {@code spring.security.user.*},
 * which Boot itself does not turn into a user beside a {@code JwtDecoder} but the
 * approval chain honours, and the holders of a bearer token with
 * {@code web.token-authority}. Says so at startup when people must approve calls and none
 * of them can.
 */
final class ApproverLogins {

	static final String USER_PREFIX = "spring.security.user";

	private static final Logger logger = LoggerFactory.getLogger(ApprovalWebAutoConfiguration.class);

	// As Spring Boot's UserDetailsServiceAutoConfiguration: a password with an {id}
	// prefix is already encoded
	private static final Pattern ENCODED_PASSWORD = Pattern.compile("^\\{.+}.*$");

	private final ApprovalProperties.Web web;

	private final boolean applicationUsers;

	private final @Nullable UserDetails propertyUser;

	private final boolean bearerTokens;

	private ApproverLogins(ApprovalProperties.Web web, boolean applicationUsers, @Nullable UserDetails propertyUser,
			boolean bearerTokens) {
		this.web = web;
		this.applicationUsers = applicationUsers;
		this.propertyUser = propertyUser;
		this.bearerTokens = bearerTokens;
	}

	/**
	 * Finds who can log in.
	 * @param beans the application's beans
	 * @param environment the properties
	 * @param web the approval web settings
	 * @param bearerTokens whether the approval chain accepts bearer tokens
	 * @return the logins
	 */
	static ApproverLogins of(ListableBeanFactory beans, Environment environment, ApprovalProperties.Web web,
			boolean bearerTokens) {
		boolean applicationUsers = has(beans, UserDetailsService.class) || has(beans, AuthenticationProvider.class)
				|| has(beans, AuthenticationManager.class);
		UserDetails propertyUser = applicationUsers ? null
				: propertyUser(Binder.get(environment), has(beans, PasswordEncoder.class));
		return new ApproverLogins(web, applicationUsers, propertyUser, bearerTokens);
	}

	private static boolean has(ListableBeanFactory beans, Class<?> type) {
		return BeanFactoryUtils.beanNamesForTypeIncludingAncestors(beans, type, true, false).length > 0;
	}

	// Boot's user when a password is set (the name defaults to 'user'); Boot's generated
	// password is for nobody
	private static @Nullable UserDetails propertyUser(Binder binder, boolean passwordEncoder) {
		String password = binder.bind(USER_PREFIX + ".password", String.class).orElse(null);
		if (password == null || password.isEmpty()) {
			return null;
		}
		String name = binder.bind(USER_PREFIX + ".name", String.class).orElse("user");
		List<String> roles = binder.bind(USER_PREFIX + ".roles", Bindable.listOf(String.class)).orElse(List.of());
		return User.withUsername(name)
			.password(
					(passwordEncoder || ENCODED_PASSWORD.matcher(password).matches()) ? password : "{noop}" + password)
			.roles(roles.toArray(String[]::new))
			.build();
	}

	/**
	 * The user of {@code spring.security.user.*} for the approval chain alone, when the
	 * application has no users of its own.
	 * @return the user, or {@code null}
	 */
	@Nullable UserDetailsService propertyUsers() {
		return (this.propertyUser != null) ? new InMemoryUserDetailsManager(this.propertyUser) : null;
	}

	/**
	 * The authorities that let a request see and decide approvals: {@code ROLE_<role>},
	 * and {@code web.token-authority} when set.
	 * @return the authorities
	 */
	String[] approverAuthorities() {
		List<String> authorities = new ArrayList<>();
		authorities.add("ROLE_" + role());
		if (this.web.getTokenAuthority() != null) {
			authorities.add(this.web.getTokenAuthority());
		}
		return authorities.toArray(String[]::new);
	}

	private String role() {
		String role = this.web.getRole();
		return role.startsWith("ROLE_") ? role.substring("ROLE_".length()) : role;
	}

	/**
	 * Warns when calls wait for a person's approval and nobody can log in to give it.
	 * @param gated the tools that need approval
	 * @param waiting the active providers that wait for a person (queue, link)
	 */
	void warnIfNobodyCanApprove(List<String> gated, List<String> waiting) {
		if (gated.isEmpty() || waiting.isEmpty()) {
			return;
		}
		String whyNot = whyNobodyCanApprove();
		if (whyNot != null) {
			logger.warn(
					"Calls of {} wait for a person's approval (provider {}), but nobody can log in as an "
							+ "approver to the approval console and REST API at {}: {}. Let approvers in: declare a "
							+ "UserDetailsService bean, or set {}.name, {}.password and {}.roles={}, or set "
							+ "{}.web.token-authority to the authority that lets a bearer token approve (such as "
							+ "SCOPE_approvals for the scope 'approvals')",
					String.join(", ", gated), String.join(", ", waiting), this.web.getPath(), whyNot, USER_PREFIX,
					USER_PREFIX, USER_PREFIX, role(), ApprovalProperties.PREFIX);
		}
	}

	private @Nullable String whyNobodyCanApprove() {
		if (this.applicationUsers || this.bearerTokens
				|| (this.propertyUser != null && this.propertyUser.getAuthorities()
					.stream()
					.anyMatch((authority) -> ("ROLE_" + role()).equals(authority.getAuthority())))) {
			return null;
		}
		List<String> reasons = new ArrayList<>();
		if (this.propertyUser == null) {
			reasons.add("the application has no users (no UserDetailsService bean, no " + USER_PREFIX
					+ ".password, and Spring Boot defines no user of its own when Spring Security's OAuth2 resource "
					+ "server, OAuth2 client or SAML is on the class path)");
		}
		else {
			reasons.add(USER_PREFIX + ".roles does not include " + role());
		}
		if (this.web.getTokenAuthority() != null) {
			reasons.add(ApprovalProperties.PREFIX + ".web.token-authority is set, but the application has no "
					+ "JwtDecoder to check bearer tokens with");
		}
		return String.join("; ", reasons);
	}

}
