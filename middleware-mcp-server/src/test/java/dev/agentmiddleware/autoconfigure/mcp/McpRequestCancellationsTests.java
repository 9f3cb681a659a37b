package dev.agentmiddleware.autoconfigure.mcp;

import java.math.BigDecimal;
import java.math.BigInteger;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The key of a JSON-RPC request id, which a {@code notifications/cancelled} names the
 * request by: one key per number whatever its JSON form, another for a string.
 */
class McpRequestCancellationsTests {

	@Test
	void aNumberHasOneKeyWhateverTypeTheParserGaveIt() {
		for (Object seven : new Object[] { 7, 7L, (short) 7, (byte) 7, 7.0, 7.0f, new BigDecimal("7.00"),
				BigInteger.valueOf(7) }) {
			assertThat(McpRequestCancellations.key(seven)).as(seven.getClass().getSimpleName()).isEqualTo("n:7");
		}
		assertThat(McpRequestCancellations.key(100)).isEqualTo("n:100");
		assertThat(McpRequestCancellations.key(100.0)).isEqualTo("n:100");
		assertThat(McpRequestCancellations.key(0)).isEqualTo("n:0");
		assertThat(McpRequestCancellations.key(0.0)).isEqualTo("n:0");
		assertThat(McpRequestCancellations.key(-5)).isEqualTo("n:-5");
		assertThat(McpRequestCancellations.key(Long.MAX_VALUE)).isEqualTo("n:9223372036854775807");
		assertThat(McpRequestCancellations.key(Long.MIN_VALUE)).isEqualTo("n:-9223372036854775808");
		assertThat(McpRequestCancellations.key(new BigInteger("123456789012345678901234567890")))
			.isEqualTo("n:123456789012345678901234567890");
		assertThat(McpRequestCancellations.key(1.5)).isEqualTo("n:1.5");
		assertThat(McpRequestCancellations.key(1e20)).isEqualTo("n:100000000000000000000");
	}

	@Test
	void aStringIsAnotherIdThanTheNumberItSpells() {
		assertThat(McpRequestCancellations.key("7")).isEqualTo("s:7");
		assertThat(McpRequestCancellations.key("")).isEqualTo("s:");
	}

	@Test
	void anythingElseHasNoKey() {
		assertThat(McpRequestCancellations.key(null)).isNull();
		assertThat(McpRequestCancellations.key(true)).isNull();
		assertThat(McpRequestCancellations.key(Double.NaN)).isNull();
		assertThat(McpRequestCancellations.key(Double.POSITIVE_INFINITY)).isNull();
	}

}
