package dev.agentmiddleware.autoconfigure.mcp;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

import dev.agentmiddleware.autoconfigure.internal.BearerTokenRequirements;
import jakarta.servlet.http.HttpServletRequest;

import org.springframework.core.Ordered;
import org.springframework.security.authentication.AuthenticationManager;
import org.springframework.security.authentication.AuthenticationManagerResolver;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.config.annotation.web.configurers.AbstractHttpConfigurer;
import org.springframework.security.config.http.SessionCreationPolicy;
import org.springframework.security.core.Authentication;
import org.springframework.security.oauth2.jwt.Jwt;
import org.springframework.security.oauth2.jwt.JwtDecoder;
import org.springframework.security.oauth2.server.resource.InvalidBearerTokenException;
import org.springframework.security.oauth2.server.resource.authentication.JwtAuthenticationConverter;
import org.springframework.security.oauth2.server.resource.authentication.JwtAuthenticationProvider;
import org.springframework.security.oauth2.server.resource.authentication.JwtAuthenticationToken;
import org.springframework.security.oauth2.server.resource.web.BearerTokenAuthenticationEntryPoint;
import org.springframework.security.web.SecurityFilterChain;
import org.springframework.security.web.context.SecurityContextHolderFilter;
import org.springframework.security.web.util.UrlUtils;
import org.springframework.web.util.UriComponentsBuilder;

/**
 * The security of the MCP endpoint as an OAuth 2.1 resource server: every request to the
 * endpoint needs a bearer token (a JWT that the application's {@link JwtDecoder} accepts
 * and that meets the {@link BearerTokenRequirements}: an expiry, a principal, the
 * expected issuer) whose audience contains this resource's identifier; a request without
 * one, or with an invalid one, gets 401 with
 * {@code WWW-Authenticate: Bearer resource_metadata="…"}. The protected-resource metadata
 * (RFC 9728) is served to anyone at {@code /.well-known/oauth-protected-resource} and at
 * the same path followed by the endpoint path. Only these paths are matched; everything
 * else is left to the application's other filter chains.
 */
final class McpResourceServerSecurity {

	/**
	 * Ahead of the approval chain, of Spring Boot's default chains and of unordered
	 * application chains.
	 */
	static final int ORDER = Ordered.LOWEST_PRECEDENCE - 30;

	/** The path of the protected-resource metadata (RFC 9728, section 3). */
	static final String METADATA_PATH = "/.well-known/oauth-protected-resource";

	private McpResourceServerSecurity() {
	}

	/**
	 * Builds the filter chain.
	 * @param http the security builder
	 * @param endpoint the path of the MCP endpoint
	 * @param decoder decodes and validates tokens (issuer, signature, expiry and Boot's
	 * audiences, if configured)
	 * @param converter turns a token into an authentication (scopes become {@code SCOPE_}
	 * authorities)
	 * @param requirements what a token needs beyond what the decoder checks (expiry,
	 * principal, issuer)
	 * @param metadata the published metadata, which also names the accepted resource
	 * identifier
	 * @param extraAudiences Boot's
	 * {@code spring.security.oauth2.resourceserver.jwt.audiences}, also accepted
	 * @return the filter chain
	 * @throws Exception if the chain cannot be built
	 */
	static SecurityFilterChain filterChain(HttpSecurity http, String endpoint, JwtDecoder decoder,
			JwtAuthenticationConverter converter, BearerTokenRequirements requirements,
			McpProtectedResourceMetadata metadata, List<String> extraAudiences) throws Exception {
		JwtAuthenticationProvider provider = new JwtAuthenticationProvider(decoder);
		provider.setJwtAuthenticationConverter(converter);
		AuthenticationManagerResolver<HttpServletRequest> managers = (request) -> audienceChecking(provider,
				requirements, acceptedAudiences(metadata.resource(request), extraAudiences));
		BearerTokenAuthenticationEntryPoint entryPoint = new BearerTokenAuthenticationEntryPoint();
		entryPoint.setResourceMetadataParameterResolver(metadata::metadataUrl);
		String metadataForEndpoint = METADATA_PATH + endpoint;
		return http.securityMatcher(endpoint, METADATA_PATH, metadataForEndpoint)
			.authorizeHttpRequests((requests) -> requests.requestMatchers(METADATA_PATH, metadataForEndpoint)
				.permitAll()
				.anyRequest()
				.authenticated())
			.oauth2ResourceServer((resourceServer) -> resourceServer.authenticationManagerResolver(managers)
				.authenticationEntryPoint(entryPoint))
			.exceptionHandling((exceptions) -> exceptions.authenticationEntryPoint(entryPoint))
			.addFilterBefore(new McpProtectedResourceMetadataFilter(metadata, metadataForEndpoint),
					SecurityContextHolderFilter.class)
			// Each request carries its token: no HTTP session, and no CSRF token (no
			// cookie authenticates anything)
			.sessionManagement((sessions) -> sessions.sessionCreationPolicy(SessionCreationPolicy.STATELESS))
			.requestCache(AbstractHttpConfigurer::disable)
			.csrf(AbstractHttpConfigurer::disable)
			.build();
	}

	private static Set<String> acceptedAudiences(String resource, List<String> extraAudiences) {
		Set<String> accepted = new LinkedHashSet<>();
		accepted.add(resource);
		accepted.addAll(extraAudiences);
		return accepted;
	}

	// RFC 8707: a token issued for another resource is refused, even if this server could
	// verify it
	private static AuthenticationManager audienceChecking(JwtAuthenticationProvider provider,
			BearerTokenRequirements requirements, Set<String> accepted) {
		return (authentication) -> {
			Authentication authenticated = requirements.check(provider.authenticate(authentication));
			if (!(authenticated instanceof JwtAuthenticationToken token) || !hasAudience(token.getToken(), accepted)) {
				throw new InvalidBearerTokenException("The token's audience does not include this resource");
			}
			return authenticated;
		};
	}

	private static boolean hasAudience(Jwt jwt, Set<String> accepted) {
		List<String> audience = jwt.getAudience();
		return audience != null && audience.stream().anyMatch(accepted::contains);
	}

	/**
	 * The absolute URL of a path on the server the request reached: its scheme, host and
	 * port (as forwarded, when the application trusts forwarded headers) and the context
	 * path.
	 * @param request the request
	 * @param path the path within the application
	 * @return the URL
	 */
	static String absolute(HttpServletRequest request, String path) {
		return UriComponentsBuilder.fromUriString(UrlUtils.buildFullRequestUrl(request))
			.replacePath(request.getContextPath() + path)
			.replaceQuery(null)
			.fragment(null)
			.build()
			.toUriString();
	}

}
