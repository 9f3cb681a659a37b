package dev.agentmiddleware.autoconfigure.mcp;

import java.util.List;

import dev.agentmiddleware.autoconfigure.edge.HostOriginGuard;
import org.jspecify.annotations.Nullable;

/**
 * Who may talk to the MCP endpoint: the {@code Host} and {@code Origin} checks of the
 * edge guard ({@link HostOriginGuard}, the same rules as every other path the starter
 * serves) and the protocol versions the server speaks. Immutable. <pre>{@code
 * McpRequestGuard guard = new McpRequestGuard(List.of("http://localhost:*"), List.of("localhost", "127.0.0.1"),
 *         List.of("2025-06-18"));
 * guard.allowsOrigin("http://localhost:6274");   // true
 * guard.allowsOrigin("https://evil.example");    // false
 * guard.allowsHost("127.0.0.1:8080");            // true
 * }</pre>
 *
 * @param edge the host and origin checks
 * @param protocolVersions the {@code MCP-Protocol-Version} values the server accepts
 */
record McpRequestGuard(HostOriginGuard edge, List<String> protocolVersions) {

	/**
	 * The default allowed origins: pages served from this machine.
	 */
	public static final List<String> LOCAL_ORIGINS = HostOriginGuard.LOCAL_ORIGINS;

	/**
	 * The default allowed hosts: this machine's loopback names.
	 */
	public static final List<String> LOCAL_HOSTS = HostOriginGuard.LOCAL_HOSTS;

	/**
	 * Copies the versions.
	 */
	McpRequestGuard {
		protocolVersions = List.copyOf(protocolVersions);
	}

	/**
	 * Creates a guard from the allow-lists.
	 * @param allowedOrigins the origin patterns a browser page may call from
	 * @param allowedHosts the host names or addresses the server answers to
	 * @param protocolVersions the {@code MCP-Protocol-Version} values the server accepts
	 */
	McpRequestGuard(List<String> allowedOrigins, List<String> allowedHosts, List<String> protocolVersions) {
		this(new HostOriginGuard(allowedOrigins, allowedHosts), protocolVersions);
	}

	/**
	 * Why a request with these headers must be refused, if it must
	 * ({@link HostOriginGuard#refusal}).
	 * @param host the {@code Host} header, {@code null} when absent
	 * @param origin the {@code Origin} header, {@code null} when absent
	 * @return the refusal message, or {@code null} when the request may be served
	 */
	public @Nullable String refusal(@Nullable String host, @Nullable String origin) {
		return this.edge.refusal(host, origin);
	}

	/**
	 * Whether a request with this {@code Origin} header may be served.
	 * @param origin the header value, {@code null} when absent
	 * @return {@code true} when absent or allowed
	 */
	public boolean allowsOrigin(@Nullable String origin) {
		return this.edge.allowsOrigin(origin);
	}

	/**
	 * Whether a request with this {@code Host} header may be served.
	 * @param host the header value, with or without port; {@code null} when absent
	 * @return {@code true} when allowed
	 */
	public boolean allowsHost(@Nullable String host) {
		return this.edge.allowsHost(host);
	}

	/**
	 * Whether the server speaks this protocol version.
	 * @param version the {@code MCP-Protocol-Version} header value, {@code null} when
	 * absent
	 * @return {@code true} when absent (the client predates the header) or supported
	 */
	public boolean allowsProtocolVersion(@Nullable String version) {
		return version == null || this.protocolVersions.contains(version.trim());
	}

}
