package dev.agentmiddleware.autoconfigure.approval.web;

import dev.agentmiddleware.autoconfigure.internal.BearerTokenRequirements;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.security.oauth2.server.resource.autoconfigure.OAuth2ResourceServerProperties;
import org.springframework.security.authentication.AuthenticationManager;
import org.springframework.security.oauth2.jwt.JwtDecoder;
import org.springframework.security.oauth2.server.resource.authentication.JwtAuthenticationConverter;
import org.springframework.security.oauth2.server.resource.authentication.JwtAuthenticationProvider;

/**
 * How the approval and audit chains authenticate a bearer token, when a
 * {@code web.token-authority} lets tokens in: the application's {@code JwtDecoder} and
 * converter, then the {@code BearerTokenRequirements} of the starter's chains (those of
 * the MCP endpoint where there is one, so that every chain takes the same tokens). Not an
 * {@link AuthenticationManager} bean of its own, which Spring Security would take for the
 * application's.
 */
final class BearerTokenAuthentication {

	private BearerTokenAuthentication() {
	}

	static AuthenticationManager of(JwtDecoder decoder, ObjectProvider<JwtAuthenticationConverter> converter,
			ObjectProvider<BearerTokenRequirements> requirements, OAuth2ResourceServerProperties resourceServer) {
		JwtAuthenticationProvider provider = new JwtAuthenticationProvider(decoder);
		provider.setJwtAuthenticationConverter(converter.getIfAvailable(JwtAuthenticationConverter::new));
		BearerTokenRequirements checked = requirements.getIfAvailable(() -> BearerTokenRequirements
			.of(resourceServer.getJwt().getIssuerUri(), resourceServer.getJwt().getPrincipalClaimName()));
		return (authentication) -> checked.check(provider.authenticate(authentication));
	}

}
