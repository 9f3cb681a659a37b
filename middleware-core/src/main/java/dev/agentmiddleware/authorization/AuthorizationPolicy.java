package dev.agentmiddleware.authorization;

import java.util.Arrays;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;

import dev.agentmiddleware.chain.InvalidPolicyException;
import dev.agentmiddleware.tool.ToolPrincipal;
import org.jspecify.annotations.Nullable;

/**
 * The authorities a caller must hold, all of them, to call one tool. A caller that is not
 * authenticated holds none, so it may call no tool with a policy (fail closed).
 * <pre>{@code
 * AuthorizationPolicy policy = AuthorizationPolicy.of("SCOPE_files.write");
 * policy.permits(ToolPrincipal.of("alice", Set.of("SCOPE_files.write"))); // true
 * policy.permits(null);                                                  // false
 * }</pre>
 *
 * @param requiredAuthorities the authorities required, such as {@code SCOPE_files.write}
 * or {@code ROLE_ADMIN}; at least one, none blank; kept in sorted order
 */
public record AuthorizationPolicy(Set<String> requiredAuthorities) {

	/**
	 * Validates the policy.
	 * @throws IllegalArgumentException if no authority is given or one is blank
	 */
	public AuthorizationPolicy {
		Objects.requireNonNull(requiredAuthorities, "requiredAuthorities");
		if (requiredAuthorities.isEmpty()) {
			throw new InvalidPolicyException("authorities", "authorities must name at least one authority");
		}
		for (String authority : requiredAuthorities) {
			if (authority == null || authority.isBlank()) {
				throw new InvalidPolicyException("authorities", "authorities must not contain a blank authority");
			}
		}
		requiredAuthorities = java.util.Collections.unmodifiableSet(new TreeSet<>(requiredAuthorities));
	}

	/**
	 * A policy requiring the given authorities.
	 * @param authorities the authorities, at least one
	 * @return the policy
	 */
	public static AuthorizationPolicy of(String... authorities) {
		return new AuthorizationPolicy(new LinkedHashSet<>(Arrays.asList(authorities)));
	}

	/**
	 * The policy requiring every authority of both collections, or {@code null} when they
	 * name none: how the authorities a tool declares and those configured for it combine
	 * (configuration adds, never removes).
	 * @param declared the authorities the tool declares
	 * @param configured the authorities configured for it
	 * @return the policy, or {@code null} when no authority is required
	 */
	public static @Nullable AuthorizationPolicy ofAll(Collection<String> declared, Collection<String> configured) {
		Set<String> all = new LinkedHashSet<>(declared);
		all.addAll(configured);
		return all.isEmpty() ? null : new AuthorizationPolicy(all);
	}

	/**
	 * Whether a caller may call the tool.
	 * @param principal the caller, or {@code null} when it is not authenticated
	 * @return {@code true} if the caller is authenticated and holds every required
	 * authority
	 */
	public boolean permits(@Nullable ToolPrincipal principal) {
		return principal != null && principal.hasAllAuthorities(this.requiredAuthorities);
	}

	/**
	 * The required authorities a caller does not hold.
	 * @param principal the caller, or {@code null} when it is not authenticated
	 * @return the missing authorities in sorted order; all of them for an unauthenticated
	 * caller
	 */
	public List<String> missing(@Nullable ToolPrincipal principal) {
		if (principal == null) {
			return List.copyOf(this.requiredAuthorities);
		}
		return this.requiredAuthorities.stream().filter((authority) -> !principal.hasAuthority(authority)).toList();
	}

}
