package dev.agentmiddleware.autoconfigure.mcp;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class McpLogTextTests {

	@Test
	void writesControlAndFormatCharactersAsEscapesOnOneQuotedLine() {
		String text = "evil\r\n2026 INFO approved by admin" + (char) 0x1b + "[31m" + (char) 0x9b + "1A" + (char) 0x202e
				+ (char) 0x2028;
		assertThat(McpLogText.of(text))
			.isEqualTo("'evil\\u000d\\u000a2026 INFO approved by admin\\u001b[31m\\u009b1A\\u202e\\u2028'")
			.doesNotContain("\n", "\r");
	}

	@Test
	void cutsALongTextAndSaysHowLongItWas() {
		assertThat(McpLogText.of("a".repeat(1_000_000))).isEqualTo("'" + "a".repeat(64) + "'... (1000000 characters)");
	}

	@Test
	void keepsAnOrdinaryNameAsItIs() {
		assertThat(McpLogText.of("claude-code café")).isEqualTo("'claude-code café'");
		assertThat(McpLogText.of(null)).isEqualTo("(none)");
	}

}
