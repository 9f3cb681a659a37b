package dev.agentmiddleware.autoconfigure.mcp;

import dev.agentmiddleware.autoconfigure.internal.IdDigests;
import dev.agentmiddleware.tool.SessionFingerprint;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class McpSessionIdsTests {

	@Test
	void digestIsTheLowerCaseHexSha256OfTheWholeId() {
		// The SHA-256 test vector of FIPS 180-2
		assertThat(IdDigests.of("abc")).isEqualTo("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
		assertThat(IdDigests.of("x".repeat(10_000))).hasSize(IdDigests.LENGTH);
	}

	@Test
	void digestStartsWithTheHexDigitsOfTheSessionsFingerprint() {
		// So that an operator can match a stored row to the fingerprint the logs and the
		// console show
		String id = "6f1c0b9e-2d4a-4c51-9f0e-5a7d3c2b1e08";
		assertThat(SessionFingerprint.PREFIX + IdDigests.of(id).substring(0, SessionFingerprint.HEX_DIGITS))
			.isEqualTo(SessionFingerprint.of(id));
	}

}
