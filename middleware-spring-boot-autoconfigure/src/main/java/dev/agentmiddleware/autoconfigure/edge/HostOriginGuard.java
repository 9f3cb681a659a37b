package dev.agentmiddleware.autoconfigure.edge;

import java.util.List;
import java.util.Locale;

import org.jspecify.annotations.Nullable;

/**
 * Whether a request may be served, judged by its {@code Host} and {@code Origin} headers:
 * the protection against DNS rebinding (a page on another site whose name was pointed at
 * this server) of every path the starter serves. Immutable; one instance (a bean
 * configured by {@code agent.middleware.edge.allowed-hosts} and {@code allowed-origins})
 * serves the MCP transport and the servlet filter alike.
 *
 * <p>
 * A host is a name or address without port, or {@code *} for any; a request whose
 * {@code Host} header names another host is refused. An origin pattern is {@code *} (any
 * origin), an exact origin such as {@code https://app.example.com}, or an origin with
 * {@code :*} for any port, such as {@code http://localhost:*}, which also matches the
 * origin without a port. A request without an {@code Origin} header comes from a
 * non-browser client and is allowed: the header protects against web pages, which always
 * send it on the requests that matter. A page of the server itself is allowed too: an
 * {@code Origin} naming the very host and port of the {@code Host} header, when that host
 * is listed by name (not only by {@code *}). <pre>{@code
 * HostOriginGuard guard = new HostOriginGuard(List.of("http://localhost:*"), List.of("localhost", "127.0.0.1"));
 * guard.refusal("localhost:8080", "http://localhost:6274");       // null: allowed
 * guard.refusal("evil.example", null);                            // "Forbidden: this host name is not allowed"
 * guard.refusal("127.0.0.1:8080", "https://evil.example");        // "Forbidden: this origin is not allowed"
 * }</pre>
 */
public final class HostOriginGuard {

	/** The default allowed origins: pages served from this machine. */
	public static final List<String> LOCAL_ORIGINS = List.of("http://localhost:*", "https://localhost:*",
			"http://127.0.0.1:*", "https://127.0.0.1:*", "http://[::1]:*", "https://[::1]:*");

	/** The default allowed hosts: this machine's loopback names. */
	public static final List<String> LOCAL_HOSTS = List.of("localhost", "127.0.0.1", "[::1]");

	/** The message of a request refused for its {@code Host} header. */
	public static final String FOREIGN_HOST = "Forbidden: this host name is not allowed";

	/** The message of a request refused for its {@code Origin} header. */
	public static final String FOREIGN_ORIGIN = "Forbidden: this origin is not allowed";

	private static final String ANY = "*";

	private static final String ANY_PORT = ":*";

	private final List<String> allowedOrigins;

	private final List<String> allowedHosts;

	private final boolean allowsAnyHost;

	/**
	 * Creates a guard, normalising case.
	 * @param allowedOrigins the origin patterns a browser page may call from
	 * @param allowedHosts the host names or addresses the server answers to
	 */
	public HostOriginGuard(List<String> allowedOrigins, List<String> allowedHosts) {
		this.allowedOrigins = allowedOrigins.stream().map((origin) -> origin.trim().toLowerCase(Locale.ROOT)).toList();
		this.allowedHosts = allowedHosts.stream().map((host) -> host.trim().toLowerCase(Locale.ROOT)).toList();
		this.allowsAnyHost = this.allowedHosts.contains(ANY);
	}

	/**
	 * The guard of a server that answers only on this machine ({@link #LOCAL_ORIGINS},
	 * {@link #LOCAL_HOSTS}).
	 * @return the guard
	 */
	public static HostOriginGuard local() {
		return new HostOriginGuard(LOCAL_ORIGINS, LOCAL_HOSTS);
	}

	/**
	 * The allowed origin patterns, lowercase.
	 * @return the patterns
	 */
	public List<String> allowedOrigins() {
		return this.allowedOrigins;
	}

	/**
	 * The allowed hosts, lowercase.
	 * @return the hosts
	 */
	public List<String> allowedHosts() {
		return this.allowedHosts;
	}

	/**
	 * Why a request with these headers must be refused, if it must.
	 * @param host the {@code Host} header, {@code null} when absent
	 * @param origin the {@code Origin} header, {@code null} when absent
	 * @return {@link #FOREIGN_HOST} or {@link #FOREIGN_ORIGIN}, or {@code null} when the
	 * request may be served
	 */
	public @Nullable String refusal(@Nullable String host, @Nullable String origin) {
		if (!allowsHost(host)) {
			return FOREIGN_HOST;
		}
		if (origin == null || allowsOrigin(origin) || isOwnPage(host, origin)) {
			return null;
		}
		return FOREIGN_ORIGIN;
	}

	/**
	 * Whether a request with this {@code Host} header may be served.
	 * @param host the header value, with or without port; {@code null} when absent
	 * @return {@code true} when allowed
	 */
	public boolean allowsHost(@Nullable String host) {
		if (this.allowsAnyHost) {
			return true;
		}
		return host != null && isListed(host.trim().toLowerCase(Locale.ROOT));
	}

	/**
	 * Whether an {@code Origin} header matches the allowed origin patterns.
	 * @param origin the header value, {@code null} when absent
	 * @return {@code true} when absent or matching
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
				if (candidate.equals(base)
						|| (candidate.startsWith(base + ":") && isPort(candidate, base.length() + 1))) {
					return true;
				}
			}
		}
		return false;
	}

	// A page the server itself served (the console) calls with its own origin: the Host
	// header's host and port, for a
	// host listed by name, since with "*" any rebinding site would pass as its own page
	private boolean isOwnPage(@Nullable String host, String origin) {
		if (host == null) {
			return false;
		}
		String authority = host.trim().toLowerCase(Locale.ROOT);
		if (!isListed(authority)) {
			return false;
		}
		String candidate = origin.trim().toLowerCase(Locale.ROOT);
		return candidate.equals("http://" + authority) || candidate.equals("https://" + authority);
	}

	// Whether the host name of a Host header (lower case, trimmed) is listed, compared in
	// place rather than cut out of the header
	private boolean isListed(String authority) {
		int end = hostNameEnd(authority);
		for (String allowed : this.allowedHosts) {
			if (allowed.length() == end && authority.startsWith(allowed)) {
				return true;
			}
		}
		return false;
	}

	// Where the host name of a Host header ends: after the ']' of an IPv6 address, else
	// before the one ':' of a port
	private static int hostNameEnd(String host) {
		if (host.startsWith("[")) {
			int end = host.indexOf(']');
			return (end > 0) ? end + 1 : host.length();
		}
		int colon = host.lastIndexOf(':');
		return (colon >= 0 && host.indexOf(':') == colon) ? colon : host.length();
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

	@Override
	public String toString() {
		return "HostOriginGuard[hosts=" + this.allowedHosts + ", origins=" + this.allowedOrigins + "]";
	}

}
