package dev.agentmiddleware.tool;

import java.util.Objects;
import java.util.Set;

/**
 * Who a tool call runs for: the authenticated caller's name (an OAuth subject, a user
 * name) and the authorities it holds. Immutable. Carried by
 * {@link ToolInvocation#principal()} on every path — MCP (a bearer token), a
 * {@code ChatClient} or a Java caller (Spring Security's {@code SecurityContext}) — so
 * that authorization, approval requests and audit, logs and observers know who asked.
 * Never used as a metric tag: its name is unbounded. <pre>{@code
 * ToolPrincipal alice = ToolPrincipal.of("alice", Set.of("SCOPE_files.write"));
 * ToolInvocation call = ToolInvocation.builder(deleteFile).principal(alice).build();
 * call.principal().hasAuthority("SCOPE_files.write"); // true
 * }</pre>
 *
 * @param name the principal's name (for OAuth tokens, the subject); never blank
 * @param authorities the authorities granted to it (for OAuth tokens,
 * {@code SCOPE_<scope>}); unmodifiable
 */
public record ToolPrincipal(String name, Set<String> authorities) {

	/**
	 * Creates a principal.
	 * @param name the principal's name; never blank
	 * @param authorities the authorities granted to it
	 */
	public ToolPrincipal {
		Objects.requireNonNull(name, "name");
		if (name.isBlank()) {
			throw new IllegalArgumentException("a principal's name must not be blank");
		}
		authorities = Set.copyOf(Objects.requireNonNull(authorities, "authorities"));
	}

	/**
	 * A principal known by name only, without authorities.
	 * @param name the principal's name
	 * @return the principal
	 */
	public static ToolPrincipal of(String name) {
		return new ToolPrincipal(name, Set.of());
	}

	/**
	 * A principal with authorities.
	 * @param name the principal's name
	 * @param authorities the authorities granted to it
	 * @return the principal
	 */
	public static ToolPrincipal of(String name, Set<String> authorities) {
		return new ToolPrincipal(name, authorities);
	}

	/**
	 * Whether the principal holds an authority.
	 * @param authority the authority, for example {@code SCOPE_files.write} or
	 * {@code ROLE_ADMIN}
	 * @return {@code true} if it does
	 */
	public boolean hasAuthority(String authority) {
		return this.authorities.contains(authority);
	}

	/**
	 * Whether the principal holds every one of the authorities.
	 * @param required the authorities required
	 * @return {@code true} if it holds them all (always for an empty set)
	 */
	public boolean hasAllAuthorities(Set<String> required) {
		return this.authorities.containsAll(required);
	}

}
