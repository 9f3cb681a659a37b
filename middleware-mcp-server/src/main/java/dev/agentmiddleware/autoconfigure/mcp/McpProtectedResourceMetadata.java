package dev.agentmiddleware.autoconfigure.mcp;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import jakarta.servlet.http.HttpServletRequest;
import org.jspecify.annotations.Nullable;

/**
 * What the MCP endpoint publishes about itself as a protected resource (RFC 9728): its
 * resource identifier, the authorization servers that issue its tokens, the scopes it
 * knows and how a token is sent. The resource identifier is the configured one, or else
 * the URL of the endpoint as the request reached it (scheme, host, port, context path and
 * endpoint path).
 */
final class McpProtectedResourceMetadata {

	private final @Nullable String resource;

	private final String endpoint;

	private final List<String> authorizationServers;

	private final List<String> scopes;

	McpProtectedResourceMetadata(@Nullable String resource, String endpoint, List<String> authorizationServers,
			List<String> scopes) {
		this.resource = (resource == null || resource.isBlank()) ? null : resource;
		this.endpoint = endpoint;
		this.authorizationServers = List.copyOf(authorizationServers);
		this.scopes = List.copyOf(scopes);
	}

	/**
	 * The resource identifier that tokens must name in their audience.
	 * @param request the request, which the identifier is derived from when none is
	 * configured
	 * @return the identifier
	 */
	String resource(HttpServletRequest request) {
		return (this.resource != null) ? this.resource : McpResourceServerSecurity.absolute(request, this.endpoint);
	}

	/**
	 * The absolute URL of the metadata, for the {@code resource_metadata} parameter of a
	 * 401: the path-suffixed form that RFC 9728 derives from the endpoint path.
	 * @param request the request that was refused
	 * @return the URL
	 */
	String metadataUrl(HttpServletRequest request) {
		return McpResourceServerSecurity.absolute(request, McpResourceServerSecurity.METADATA_PATH + this.endpoint);
	}

	/**
	 * The metadata document.
	 * @param request the metadata request
	 * @return the members of the JSON object, in the order of RFC 9728
	 */
	Map<String, Object> document(HttpServletRequest request) {
		Map<String, Object> document = new LinkedHashMap<>();
		document.put("resource", resource(request));
		if (!this.authorizationServers.isEmpty()) {
			document.put("authorization_servers", this.authorizationServers);
		}
		if (!this.scopes.isEmpty()) {
			document.put("scopes_supported", this.scopes);
		}
		document.put("bearer_methods_supported", List.of("header"));
		return document;
	}

	boolean publishesAuthorizationServers() {
		return !this.authorizationServers.isEmpty();
	}

}
