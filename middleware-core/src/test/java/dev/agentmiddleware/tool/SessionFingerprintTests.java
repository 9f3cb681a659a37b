package dev.agentmiddleware.tool;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.HexFormat;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class SessionFingerprintTests {

	@Test
	void isThePrefixAndTheFirstTenHexDigitsOfTheSha256OfTheId() throws Exception {
		String id = "6f1c0b9e-2d4a-4c51-9f0e-5a7d3c2b1e08";
		String sha256 = HexFormat.of()
			.formatHex(MessageDigest.getInstance("SHA-256").digest(id.getBytes(StandardCharsets.UTF_8)));
		assertThat(SessionFingerprint.of(id)).isEqualTo("sid-" + sha256.substring(0, 10)).doesNotContain(id);
	}

	@Test
	void isStableForOneSessionAndDiffersBetweenSessions() {
		assertThat(SessionFingerprint.of("session-a")).isEqualTo(SessionFingerprint.of("session-a"))
			.isNotEqualTo(SessionFingerprint.of("session-b"));
	}

	@Test
	void staysTheSameAfterManySessionsWereFingerprinted() {
		String first = SessionFingerprint.of("the-first-session");
		for (int i = 0; i < 10_000; i++) {
			SessionFingerprint.of("session-" + i);
		}
		assertThat(SessionFingerprint.of("the-first-session")).isEqualTo(first);
	}

	@Test
	void standsForNoSessionWithNoneOrNull() {
		assertThat(SessionFingerprint.of(null)).isEqualTo("none");
		assertThat(SessionFingerprint.ofNullable(null)).isNull();
		assertThat(SessionFingerprint.ofNullable("s1")).isEqualTo(SessionFingerprint.of("s1"));
	}

}
