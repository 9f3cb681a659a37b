package dev.agentmiddleware.sample;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.NoSuchAlgorithmException;
import java.security.interfaces.RSAPrivateKey;
import java.security.interfaces.RSAPublicKey;
import java.time.Instant;
import java.util.Base64;
import java.util.Date;
import java.util.List;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.RSASSASigner;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import com.sun.net.httpserver.HttpServer;

/**
 * A stand-in authorization server for tests: an RSA key pair made for the test run, its
 * public key served as a JWK set over real HTTP on the loopback interface
 * ({@code GET /jwks}), and signed JWTs for any subject, audience and expiry, or with any
 * claims ({@link #claims}, {@link #sign}); its public key as a PEM file too.
 * {@link #forged} signs with another key under the same key id, as an attacker would.
 */
final class TestTokenIssuer implements AutoCloseable {

	private static final String KEY_ID = "test-key";

	private final KeyPair keys;

	private final KeyPair otherKeys;

	private final HttpServer server;

	private TestTokenIssuer(KeyPair keys, KeyPair otherKeys, HttpServer server) {
		this.keys = keys;
		this.otherKeys = otherKeys;
		this.server = server;
	}

	/**
	 * Makes the keys and starts serving the JWK set.
	 * @return the running issuer
	 */
	static TestTokenIssuer start() {
		try {
			KeyPair keys = rsaKeyPair();
			String jwks = new JWKSet(new RSAKey.Builder((RSAPublicKey) keys.getPublic()).keyID(KEY_ID).build())
				.toString();
			HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
			server.createContext("/jwks", (exchange) -> {
				byte[] body = jwks.getBytes(StandardCharsets.UTF_8);
				exchange.getResponseHeaders().set("Content-Type", "application/json");
				exchange.sendResponseHeaders(200, body.length);
				try (OutputStream out = exchange.getResponseBody()) {
					out.write(body);
				}
			});
			server.start();
			return new TestTokenIssuer(keys, rsaKeyPair(), server);
		}
		catch (IOException ex) {
			throw new IllegalStateException(ex);
		}
	}

	private static KeyPair rsaKeyPair() {
		try {
			KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
			generator.initialize(2048);
			return generator.generateKeyPair();
		}
		catch (NoSuchAlgorithmException ex) {
			throw new IllegalStateException(ex);
		}
	}

	/**
	 * The issuer identifier that tokens carry in {@code iss}.
	 * @return the identifier, a URL on the loopback server
	 */
	String issuer() {
		return "http://127.0.0.1:" + this.server.getAddress().getPort() + "/issuer";
	}

	/**
	 * The URL of the JWK set.
	 * @return the URL
	 */
	String jwkSetUri() {
		return "http://127.0.0.1:" + this.server.getAddress().getPort() + "/jwks";
	}

	/**
	 * Signs a token.
	 * @param subject the {@code sub}
	 * @param audience the {@code aud}
	 * @param expiresAt the {@code exp}
	 * @param scope the {@code scope}, space separated
	 * @return the compact JWT
	 */
	String token(String subject, String audience, Instant expiresAt, String scope) {
		return sign(this.keys, claims(subject, audience, expiresAt, scope).build());
	}

	/**
	 * Signs a token with a key that is not in the JWK set, under the same key id.
	 * @param subject the {@code sub}
	 * @param audience the {@code aud}
	 * @return the compact JWT, valid but for its signature
	 */
	String forged(String subject, String audience) {
		return sign(this.otherKeys, claims(subject, audience, "mcp").build());
	}

	/**
	 * The claims of a valid token, to change before {@link #sign signing}: {@code iss},
	 * {@code sub}, {@code aud}, {@code iat}, {@code exp} in ten minutes and
	 * {@code scope}.
	 * @param subject the {@code sub}
	 * @param audience the {@code aud}
	 * @param scope the {@code scope}, space separated
	 * @return the claims
	 */
	JWTClaimsSet.Builder claims(String subject, String audience, String scope) {
		return claims(subject, audience, Instant.now().plusSeconds(600), scope);
	}

	/**
	 * Signs a token with the issuer's key.
	 * @param claims the claims
	 * @return the compact JWT
	 */
	String sign(JWTClaimsSet.Builder claims) {
		return sign(this.keys, claims.build());
	}

	/**
	 * Writes the public key as a PEM file, for
	 * {@code spring.security.oauth2.resourceserver.jwt.public-key-location}.
	 * @param directory where to write it
	 * @return the file
	 */
	Path writePublicKey(Path directory) {
		String pem = "-----BEGIN PUBLIC KEY-----\n"
				+ Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII))
					.encodeToString(this.keys.getPublic().getEncoded())
				+ "\n-----END PUBLIC KEY-----\n";
		try {
			return Files.writeString(directory.resolve("issuer-public-key.pem"), pem);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	private JWTClaimsSet.Builder claims(String subject, String audience, Instant expiresAt, String scope) {
		Instant now = Instant.now();
		Instant issuedAt = expiresAt.isAfter(now) ? now.minusSeconds(5) : expiresAt.minusSeconds(600);
		return new JWTClaimsSet.Builder().issuer(issuer())
			.subject(subject)
			.audience(List.of(audience))
			.issueTime(Date.from(issuedAt))
			.expirationTime(Date.from(expiresAt))
			.claim("scope", scope);
	}

	private static String sign(KeyPair signer, JWTClaimsSet claims) {
		SignedJWT jwt = new SignedJWT(new JWSHeader.Builder(JWSAlgorithm.RS256).keyID(KEY_ID).build(), claims);
		try {
			jwt.sign(new RSASSASigner((RSAPrivateKey) signer.getPrivate()));
		}
		catch (JOSEException ex) {
			throw new IllegalStateException(ex);
		}
		return jwt.serialize();
	}

	@Override
	public void close() {
		this.server.stop(0);
	}

}
