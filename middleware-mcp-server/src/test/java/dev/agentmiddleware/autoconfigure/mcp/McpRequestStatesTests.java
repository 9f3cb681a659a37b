package dev.agentmiddleware.autoconfigure.mcp;

import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Base64;
import java.util.Map;

import dev.agentmiddleware.autoconfigure.mcp.McpRequestStates.Binding;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.json.jackson3.JacksonMcpJsonMapper;
import io.modelcontextprotocol.spec.McpError;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * The sealed {@code requestState} of MCP {@code 2026-07-28} {@code input_required}
 * answers: it opens to the answers it was sealed with on an instance that shares the key,
 * once, and every other state is refused with {@code -32602} saying why, never with the
 * payload or the key.
 */
class McpRequestStatesTests {

	private static final McpJsonMapper JSON = new JacksonMcpJsonMapper(JsonMapper.builder().build());

	private static final byte[] KEY = "0123456789abcdef0123456789abcdef".getBytes(StandardCharsets.US_ASCII);

	private final MovableClock clock = new MovableClock();

	private final McpRequestStates states = states(KEY, new InMemoryMcpRequestStateLedger(this.clock));

	private final Binding call = binding("alice", Map.of("name", "plan_trip", "arguments", Map.of("city", "Lisbon")));

	private final Map<String, Object> answers = Map.of("who",
			Map.of("action", "accept", "content", Map.of("name", "Ada")));

	@Test
	void aStateOpensToItsAnswersOnAnotherInstanceWithTheSameKey() {
		String state = this.states.seal(this.call, this.answers);
		McpRequestStates other = states(KEY.clone(), new InMemoryMcpRequestStateLedger(this.clock));
		assertThat(other.open(state, this.call)).isEqualTo(this.answers);
	}

	@Test
	void theDigestIgnoresKeyOrderAndEverythingButTheNameAndArguments() {
		Map<String, Object> reordered = Map.of("arguments", Map.of("city", "Lisbon"), "name", "plan_trip", "_meta",
				Map.of("x", 1), "inputResponses", Map.of(), "requestState", "s");
		String state = this.states.seal(this.call, this.answers);
		assertThat(this.states.open(state, binding("alice", reordered))).isEqualTo(this.answers);
	}

	@Test
	void aTamperedStateIsRefused() {
		String state = this.states.seal(this.call, this.answers);
		String payload = new String(Base64.getUrlDecoder().decode(state.substring(0, state.indexOf('.'))),
				StandardCharsets.UTF_8);
		String forged = Base64.getUrlEncoder()
			.withoutPadding()
			.encodeToString(payload.replace("Ada", "Eve").getBytes(StandardCharsets.UTF_8))
				+ state.substring(state.indexOf('.'));
		assertRefused(forged, this.call, "failed its integrity check");
		assertRefused(state + "-TAMPERED", this.call, "failed its integrity check");
	}

	@Test
	void aStateSealedWithAnotherKeyIsRefused() {
		String state = states("another key of thirty-two bytes!".getBytes(StandardCharsets.US_ASCII),
				new InMemoryMcpRequestStateLedger(this.clock))
			.seal(this.call, this.answers);
		assertRefused(state, this.call, "failed its integrity check");
	}

	@Test
	void anExpiredStateIsRefused() {
		String state = this.states.seal(this.call, this.answers);
		this.clock.advance(Duration.ofMinutes(10));
		assertRefused(state, this.call, "has expired");
	}

	@Test
	void aStateOfAnotherRequestIsRefused() {
		String state = this.states.seal(this.call, this.answers);
		assertRefused(state, binding("bob", Map.of("name", "plan_trip", "arguments", Map.of("city", "Lisbon"))),
				"was issued for another request");
		assertRefused(state, binding(null, Map.of("name", "plan_trip", "arguments", Map.of("city", "Lisbon"))),
				"was issued for another request");
		assertRefused(state, binding("alice", Map.of("name", "plan_trip", "arguments", Map.of("city", "Porto"))),
				"was issued for another request");
		assertRefused(state, new Binding("prompts/get", this.call.paramsDigest(), "alice"),
				"was issued for another request");
	}

	@Test
	void aReplayedStateIsRefused() {
		String state = this.states.seal(this.call, this.answers);
		assertThat(this.states.open(state, this.call)).isEqualTo(this.answers);
		assertRefused(state, this.call, "was already used");
	}

	@Test
	void aMalformedStateIsRefused() {
		assertRefused("", this.call, "is malformed");
		assertRefused("no-dot", this.call, "is malformed");
		assertRefused("a.b.c", this.call, "is malformed");
		assertRefused("!!!.???", this.call, "is malformed");
	}

	@Test
	void aKeyShorterThan32BytesIsRefused() {
		assertThatIllegalArgumentException()
			.isThrownBy(() -> states(new byte[31], new InMemoryMcpRequestStateLedger(this.clock)))
			.withMessageContaining("at least 32 bytes");
	}

	@Test
	void theLedgerForgetsExpiredStates() {
		InMemoryMcpRequestStateLedger ledger = new InMemoryMcpRequestStateLedger(this.clock);
		for (int i = 0; i < 254; i++) {
			assertThat(ledger.consume("state-" + i, this.clock.instant().plusSeconds(60))).isTrue();
		}
		assertThat(ledger.consume("state-0", this.clock.instant().plusSeconds(60))).isFalse();
		this.clock.advance(Duration.ofMinutes(2));
		assertThat(ledger.consume("fresh", this.clock.instant().plusSeconds(60))).isTrue();
		assertThat(ledger.size()).isEqualTo(1);
	}

	private void assertRefused(String state, Binding binding, String why) {
		assertThatExceptionOfType(McpError.class).isThrownBy(() -> this.states.open(state, binding)).satisfies((ex) -> {
			assertThat(ex.getJsonRpcError().code()).isEqualTo(-32602);
			assertThat(ex.getJsonRpcError().message()).startsWith("Invalid params: the requestState ")
				.contains(why)
				.doesNotContain("Ada")
				.doesNotContain("0123456789abcdef");
		});
	}

	private McpRequestStates states(byte[] key, McpRequestStateLedger ledger) {
		return new McpRequestStates(JSON, key, Duration.ofMinutes(10), this.clock, ledger);
	}

	private static Binding binding(String principal, Map<String, Object> params) {
		return Binding.of(JSON, "tools/call", params, principal);
	}

	static final class MovableClock extends Clock {

		private volatile Instant now = Instant.parse("2026-07-28T00:00:00Z");

		void advance(Duration duration) {
			this.now = this.now.plus(duration);
		}

		@Override
		public ZoneOffset getZone() {
			return ZoneOffset.UTC;
		}

		@Override
		public Clock withZone(java.time.ZoneId zone) {
			return this;
		}

		@Override
		public Instant instant() {
			return this.now;
		}

	}

}
