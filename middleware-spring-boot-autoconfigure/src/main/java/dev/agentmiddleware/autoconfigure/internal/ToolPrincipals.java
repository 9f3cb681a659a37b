package dev.agentmiddleware.autoconfigure.internal;

import java.security.Principal;
import java.util.LinkedHashSet;
import java.util.Set;

import dev.agentmiddleware.tool.ToolPrincipal;
import org.jspecify.annotations.Nullable;

import org.springframework.security.authentication.AnonymousAuthenticationToken;
import org.springframework.security.core.Authentication;
import org.springframework.security.core.GrantedAuthority;
import org.springframework.security.core.context.SecurityContextHolder;
import org.springframework.util.ClassUtils;

/**
 * The one conversion of a caller's identity into the {@link ToolPrincipal} of a tool
 * call, on every path: a Java caller's and a {@code ChatClient} turn's Spring Security
 * {@code SecurityContext}, and the authenticated user of an MCP request. A Spring
 * Security {@code Authentication} gives its name and its authorities as strings (for
 * OAuth tokens {@code SCOPE_<scope>}); an anonymous or unauthenticated one gives no
 * principal. Works without Spring Security on the class path: there is then no current
 * principal, and a plain {@link Principal} gives its name only. <pre>{@code
 * ToolPrincipal caller = ToolPrincipals.current();             // from SecurityContextHolder, or null
 * ToolPrincipal user = ToolPrincipals.of(request.getUserPrincipal());
 * }</pre>
 */
public final class ToolPrincipals {

	private static final boolean SECURITY_PRESENT = ClassUtils.isPresent(
			"org.springframework.security.core.context.SecurityContextHolder", ToolPrincipals.class.getClassLoader());

	private ToolPrincipals() {
	}

	/**
	 * The principal of Spring Security's {@code SecurityContext} on the current thread.
	 * @return the principal, or {@code null} when there is no authenticated one (or no
	 * Spring Security)
	 */
	public static @Nullable ToolPrincipal current() {
		return SECURITY_PRESENT ? Security.current() : null;
	}

	/**
	 * The principal of an authenticated user: a Spring Security {@code Authentication}
	 * with its authorities, any other {@link Principal} by name only; a
	 * {@link ToolPrincipal} as it is.
	 * @param principal the user, such as {@code HttpServletRequest.getUserPrincipal()},
	 * or {@code null}
	 * @return the principal, or {@code null} for {@code null}, an anonymous or an
	 * unauthenticated user, or a blank name
	 */
	public static @Nullable ToolPrincipal of(@Nullable Object principal) {
		if (principal == null || principal instanceof ToolPrincipal) {
			return (ToolPrincipal) principal;
		}
		if (SECURITY_PRESENT && Security.isAuthentication(principal)) {
			return Security.of(principal);
		}
		if (principal instanceof Principal named) {
			String name = named.getName();
			return (name != null && !name.isBlank()) ? ToolPrincipal.of(name) : null;
		}
		return null;
	}

	/**
	 * Kept apart so that the Spring Security classes load only when present.
	 */
	private static final class Security {

		static @Nullable ToolPrincipal current() {
			return of(SecurityContextHolder.getContext().getAuthentication());
		}

		static boolean isAuthentication(Object principal) {
			return principal instanceof Authentication;
		}

		static @Nullable ToolPrincipal of(@Nullable Object principal) {
			if (!(principal instanceof Authentication authentication) || !authentication.isAuthenticated()
					|| authentication instanceof AnonymousAuthenticationToken) {
				return null;
			}
			String name = authentication.getName();
			if (name == null || name.isBlank()) {
				return null;
			}
			Set<String> authorities = new LinkedHashSet<>();
			for (GrantedAuthority authority : authentication.getAuthorities()) {
				String text = authority.getAuthority();
				if (text != null && !text.isBlank()) {
					authorities.add(text);
				}
			}
			return ToolPrincipal.of(name, authorities);
		}

	}

}
