package dev.agentmiddleware.autoconfigure.internal;

import org.jspecify.annotations.Nullable;

import org.springframework.security.core.Authentication;
import org.springframework.security.oauth2.jwt.Jwt;
import org.springframework.security.oauth2.jwt.JwtClaimNames;
import org.springframework.security.oauth2.server.resource.InvalidBearerTokenException;
import org.springframework.security.oauth2.server.resource.authentication.JwtAuthenticationToken;

/**
 * What the starter's filter chains (the MCP endpoint, the approval REST API) require of a
 * bearer token beyond what the application's {@code JwtDecoder} checked (signature, and
 * the claims its validators check): an expiry ({@code exp}), a principal (the {@code sub}
 * claim, or the claim that
 * {@code spring.security.oauth2.resourceserver.jwt.principal-claim-name} names), and,
 * when an issuer is expected, that issuer in {@code iss}. A token that falls short is
 * refused as {@code invalid_token}, with a description that says why. <pre>{@code
 * BearerTokenRequirements requirements = BearerTokenRequirements.of("https://login.example.com", null);
 * Authentication checked = requirements.check(jwtAuthenticationProvider.authenticate(bearer));
 * }</pre>
 */
public final class BearerTokenRequirements {

	private final @Nullable String issuer;

	private final String principalClaim;

	private BearerTokenRequirements(@Nullable String issuer, String principalClaim) {
		this.issuer = issuer;
		this.principalClaim = principalClaim;
	}

	/**
	 * The requirements.
	 * @param issuer the issuer that every token must name in {@code iss}, or {@code null}
	 * to check none here
	 * @param principalClaim the claim that names a token's principal, or {@code null} for
	 * {@code sub}
	 * @return the requirements
	 */
	public static BearerTokenRequirements of(@Nullable String issuer, @Nullable String principalClaim) {
		return new BearerTokenRequirements((issuer == null || issuer.isBlank()) ? null : issuer,
				(principalClaim == null || principalClaim.isBlank()) ? JwtClaimNames.SUB : principalClaim);
	}

	/**
	 * The issuer that every token must name.
	 * @return the issuer, or {@code null} when none is checked here
	 */
	public @Nullable String issuer() {
		return this.issuer;
	}

	/**
	 * Checks an authenticated bearer token.
	 * @param authenticated what the token authenticated as: a
	 * {@link JwtAuthenticationToken}
	 * @return the same authentication
	 * @throws InvalidBearerTokenException if the token is not a JWT, has no expiry, names
	 * no principal or names another issuer
	 */
	public Authentication check(Authentication authenticated) {
		if (!(authenticated instanceof JwtAuthenticationToken token)) {
			throw new InvalidBearerTokenException("The token is not a JWT");
		}
		Jwt jwt = token.getToken();
		if (jwt.getExpiresAt() == null) {
			throw new InvalidBearerTokenException(
					"The token has no expiry ('exp'): tokens that never expire are refused");
		}
		String name = authenticated.getName();
		if (name == null || name.isBlank()) {
			// Without a principal, nothing it starts (an MCP session, an approval) has an
			// owner
			throw new InvalidBearerTokenException(
					"The token names no principal: it has no '" + this.principalClaim + "' claim");
		}
		if (this.issuer != null && !this.issuer.equals(jwt.getClaimAsString(JwtClaimNames.ISS))) {
			throw new InvalidBearerTokenException("The token was not issued by the expected issuer");
		}
		return authenticated;
	}

}
