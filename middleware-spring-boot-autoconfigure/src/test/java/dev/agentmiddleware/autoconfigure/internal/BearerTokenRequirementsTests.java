package dev.agentmiddleware.autoconfigure.internal;

import java.time.Instant;
import java.util.function.Consumer;

import org.junit.jupiter.api.Test;

import org.springframework.security.core.Authentication;
import org.springframework.security.oauth2.jwt.Jwt;
import org.springframework.security.oauth2.server.resource.InvalidBearerTokenException;
import org.springframework.security.oauth2.server.resource.authentication.JwtAuthenticationConverter;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

class BearerTokenRequirementsTests {

	private final JwtAuthenticationConverter converter = new JwtAuthenticationConverter();

	@Test
	void aTokenWithExpirySubjectAndTheExpectedIssuerPasses() {
		Authentication authentication = authenticate((claims) -> {
		});
		assertThat(BearerTokenRequirements.of("https://login.example.com", null).check(authentication))
			.isSameAs(authentication);
	}

	@Test
	void withoutAnExpectedIssuerAnyIssuerPasses() {
		Authentication authentication = authenticate((claims) -> claims.issuer("https://elsewhere.example"));
		assertThat(BearerTokenRequirements.of(null, null).check(authentication)).isSameAs(authentication);
	}

	@Test
	void aTokenWithoutExpiryIsRefused() {
		assertThatExceptionOfType(InvalidBearerTokenException.class)
			.isThrownBy(() -> BearerTokenRequirements.of(null, null)
				.check(authenticate((claims) -> claims.claims((all) -> all.remove("exp")))))
			.withMessage("The token has no expiry ('exp'): tokens that never expire are refused");
	}

	@Test
	void aTokenWithoutSubjectIsRefused() {
		assertThatExceptionOfType(InvalidBearerTokenException.class)
			.isThrownBy(() -> BearerTokenRequirements.of(null, null)
				.check(authenticate((claims) -> claims.claims((all) -> all.remove("sub")))))
			.withMessage("The token names no principal: it has no 'sub' claim");
	}

	@Test
	void theConfiguredPrincipalClaimMustBePresent() {
		this.converter.setPrincipalClaimName("email");
		assertThatExceptionOfType(InvalidBearerTokenException.class)
			.isThrownBy(() -> BearerTokenRequirements.of(null, "email").check(authenticate((claims) -> {
			})))
			.withMessage("The token names no principal: it has no 'email' claim");
		Authentication withEmail = authenticate((claims) -> claims.claim("email", "alice@example.com"));
		assertThat(BearerTokenRequirements.of(null, "email").check(withEmail).getName()).isEqualTo("alice@example.com");
	}

	@Test
	void aTokenOfAnotherIssuerOrNoneIsRefused() {
		BearerTokenRequirements requirements = BearerTokenRequirements.of("https://login.example.com", null);
		assertThatExceptionOfType(InvalidBearerTokenException.class)
			.isThrownBy(() -> requirements.check(authenticate((claims) -> claims.issuer("https://login.example"))))
			.withMessage("The token was not issued by the expected issuer");
		assertThatExceptionOfType(InvalidBearerTokenException.class)
			.isThrownBy(() -> requirements.check(authenticate((claims) -> claims.claims((all) -> all.remove("iss")))))
			.withMessage("The token was not issued by the expected issuer");
	}

	private Authentication authenticate(Consumer<Jwt.Builder> changes) {
		Instant now = Instant.now();
		Jwt.Builder jwt = Jwt.withTokenValue("token")
			.header("alg", "RS256")
			.issuer("https://login.example.com")
			.subject("alice")
			.issuedAt(now)
			.expiresAt(now.plusSeconds(600))
			.claim("scope", "mcp.tools");
		changes.accept(jwt);
		return this.converter.convert(jwt.build());
	}

}
