package dev.agentmiddleware.spring.mcp;

import java.util.List;
import java.util.Locale;

import org.jspecify.annotations.Nullable;

/**
 * Who may talk to the MCP endpoint: the {@code Origin} and {@code Host} allow-lists and the protocol versions the
 * server speaks. Immutable.
 *
 * <p>An origin pattern is {@code *} (any origin), an exact origin such as {@code https://app.example.com}, or an
 * origin with {@code :*} for any port, such as {@code http://localhost:*}, which also matches the origin without a
 * port. A request without an {@code Origin} header comes from a non-browser client and is allowed: the header
 * protects against web pages (DNS rebinding), which always send it. A host is a name or address without port, or
 * {@code *} for any; a request whose {@code Host} header names another host is refused.
 * <pre>{@code
 * McpRequestGuard guard = new McpRequestGuard(List.of("http://localhost:*"), List.of("localhost", "127.0.0.1"),
 *         List.of("2025-06-18"));
 * guard.allowsOrigin("http://localhost:6274");   // true
 * guard.allowsOrigin("https://evil.example");    // false
 * guard.allowsHost("127.0.0.1:8080");            // true
 * }</pre>
 *
 * @param allowedOrigins the origin patterns a browser page may call from
 * @param allowedHosts the host names or addresses the server answers to
 * @param protocolVersions the {@code MCP-Protocol-Version} values the server accepts
 */
public record McpRequestGuard(List<String> allowedOrigins, List<String> allowedHosts, List<String> protocolVersions) {

	/**
	 * The default allowed origins: pages served from this machine.
	 */
	public static final List<String> LOCAL_ORIGINS = List.of("http://localhost:*", "https://localhost:*",
			"http://127.0.0.1:*", "https://127.0.0.1:*", "http://[::1]:*", "https://[::1]:*");

	/**
	 * The default allowed hosts: this machine's loopback names.
	 */
	public static final List<String> LOCAL_HOSTS = List.of("localhost", "127.0.0.1", "[::1]");

	private static final String ANY = "*";

	private static final String ANY_PORT = ":*";

	/**
	 * Copies the lists, normalising case.
	 */
	public McpRequestGuard {
		allowedOrigins = allowedOrigins.stream().map((origin) -> origin.trim().toLowerCase(Locale.ROOT)).toList();
		allowedHosts = allowedHosts.stream().map((host) -> host.trim().toLowerCase(Locale.ROOT)).toList();
		protocolVersions = List.copyOf(protocolVersions);
	}

	/**
	 * Whether a request with this {@code Origin} header may be served.
	 * @param origin the header value, {@code null} when absent
	 * @return {@code true} when absent or allowed
	 */
	public boolean allowsOrigin(@Nullable String origin) {
		if (origin == null) {
			return true;
		}
		String candidate = origin.trim().toLowerCase(Locale.ROOT);
		for (String allowed : this.allowedOrigins) {
			if (allowed.equals(ANY) || allowed.equals(candidate)) {
				return true;
			}
			if (allowed.endsWith(ANY_PORT)) {
				String base = allowed.substring(0, allowed.length() - ANY_PORT.length());
				if (candidate.equals(base) || (candidate.startsWith(base + ":") && isPort(candidate, base.length() + 1))) {
					return true;
				}
			}
		}
		return false;
	}

	/**
	 * Whether a request with this {@code Host} header may be served.
	 * @param host the header value, with or without port; {@code null} when absent
	 * @return {@code true} when allowed
	 */
	public boolean allowsHost(@Nullable String host) {
		if (this.allowedHosts.contains(ANY)) {
			return true;
		}
		if (host == null) {
			return false;
		}
		return this.allowedHosts.contains(hostName(host.trim().toLowerCase(Locale.ROOT)));
	}

	/**
	 * Whether the server speaks this protocol version.
	 * @param version the {@code MCP-Protocol-Version} header value, {@code null} when absent
	 * @return {@code true} when absent (the client predates the header) or supported
	 */
	public boolean allowsProtocolVersion(@Nullable String version) {
		return version == null || this.protocolVersions.contains(version.trim());
	}

	private static String hostName(String host) {
		if (host.startsWith("[")) {
			int end = host.indexOf(']');
			return (end > 0) ? host.substring(0, end + 1) : host;
		}
		int colon = host.lastIndexOf(':');
		return (colon >= 0 && host.indexOf(':') == colon) ? host.substring(0, colon) : host;
	}

	private static boolean isPort(String text, int from) {
		if (from >= text.length()) {
			return false;
		}
		for (int i = from; i < text.length(); i++) {
			if (!Character.isDigit(text.charAt(i))) {
				return false;
			}
		}
		return true;
	}

}
