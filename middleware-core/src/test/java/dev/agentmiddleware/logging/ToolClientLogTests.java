package dev.agentmiddleware.logging;

import java.util.List;
import java.util.Map;
import java.util.concurrent.CancellationException;

import ch.qos.logback.classic.Level;
import dev.agentmiddleware.testsupport.CapturedLog;
import dev.agentmiddleware.tool.ElicitationRequest;
import dev.agentmiddleware.tool.ElicitationResult;
import dev.agentmiddleware.tool.SamplingRequest;
import dev.agentmiddleware.tool.SamplingResult;
import dev.agentmiddleware.tool.ToolClient;
import dev.agentmiddleware.tool.ToolClientUnavailableException;
import dev.agentmiddleware.tool.ToolDescriptor;
import dev.agentmiddleware.tool.ToolInputRequiredException;
import dev.agentmiddleware.tool.ToolInvocation;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

class ToolClientLogTests {

	private static final ToolInvocation CALL = ToolInvocation.builder(ToolDescriptor.builder("book_table").build())
		.build();

	@RegisterExtension
	final CapturedLog capturedLog = CapturedLog.of(LoggingMiddleware.DEFAULT_LOGGER_NAME, Level.DEBUG);

	@Test
	void logsEachRequestWithTheCallAndItsOutcomeButNeverTheQuestionOrTheAnswer() {
		ToolClient client = ToolClientLog.of(new AnsweringClient(), CALL);

		ElicitationResult answer = client.elicit(ElicitationRequest.builder("Your card number?").build());
		SamplingResult reply = client.sample(SamplingRequest.of("Summarise the secret plan", 10));
		client.log(ToolClient.Level.INFO, "working on the secret plan");

		assertThat(answer.content()).containsEntry("card", "4111 1111 1111 1111");
		assertThat(reply.text()).isEqualTo("the secret plan, in short");
		assertThat(this.capturedLog.events())
			.extracting((event) -> event.getLevel() + " " + event.getFormattedMessage())
			.satisfiesExactly(
					(line) -> assertThat(line).matches("INFO tool=book_table call=" + CALL.callId()
							+ " client_request=elicitation outcome=accept duration_ms=\\d+\\.\\d{3}"),
					(line) -> assertThat(line).matches("INFO tool=book_table call=" + CALL.callId()
							+ " client_request=sampling outcome=answered duration_ms=\\d+\\.\\d{3}"),
					(line) -> assertThat(line)
						.isEqualTo("DEBUG tool=book_table call=" + CALL.callId() + " client_request=log level=info"));
	}

	@Test
	void logsARequestTheClientCannotServeAndRethrowsIt() {
		ToolClient client = ToolClientLog.of(null, CALL);
		assertThat(client.canElicit()).isFalse();
		assertThatExceptionOfType(ToolClientUnavailableException.class)
			.isThrownBy(() -> client.elicit(ElicitationRequest.builder("When?").build()));
		assertThat(this.capturedLog.events()).singleElement()
			.satisfies((event) -> assertThat(event.getFormattedMessage()).isEqualTo("tool=book_table call="
					+ CALL.callId()
					+ " client_request=elicitation outcome=unavailable error=\"Tool 'book_table' cannot "
					+ "ask its client for elicitation: the call has no MCP client to ask its user (a Java or ChatClient "
					+ "call)\""));
	}

	@Test
	void logsACancelledRequestAndRethrowsTheCancellation() {
		ToolClient client = ToolClientLog.of(new AnsweringClient() {

			@Override
			public SamplingResult sample(SamplingRequest request) {
				throw new CancellationException("the call was cancelled");
			}

		}, CALL);
		assertThatExceptionOfType(CancellationException.class)
			.isThrownBy(() -> client.sample(SamplingRequest.of("Hi", 1)));
		assertThat(this.capturedLog.events()).singleElement()
			.satisfies((event) -> assertThat(event.getFormattedMessage())
				.contains("client_request=sampling outcome=cancelled"));
	}

	@Test
	void logsARequestThatWaitsForTheRetryAsInputRequiredAndRethrowsIt() {
		ToolInputRequiredException signal = new ToolInputRequiredException("book_table", "elicitation");
		ToolClient client = ToolClientLog.of(new AnsweringClient() {

			@Override
			public ElicitationResult elicit(ElicitationRequest request) {
				throw signal;
			}

		}, CALL);
		assertThatExceptionOfType(ToolInputRequiredException.class)
			.isThrownBy(() -> client.elicit(ElicitationRequest.builder("When?").id("when").build()))
			.isSameAs(signal);
		assertThat(this.capturedLog.events()).singleElement()
			.satisfies((event) -> assertThat(event.getFormattedMessage())
				.contains("client_request=elicitation outcome=input_required"));
	}

	@Test
	void asksTheRootsOfTheCallsClientAndLogsTheRequest() {
		ToolClient client = ToolClientLog.of(new AnsweringClient() {

			@Override
			public boolean canListRoots() {
				return true;
			}

			@Override
			public List<Root> roots() {
				return List.of(new Root("file:///work", "work"));
			}

		}, CALL);
		assertThat(client.canListRoots()).isTrue();
		assertThat(client.roots()).containsExactly(new ToolClient.Root("file:///work", "work"));
		assertThat(this.capturedLog.events()).singleElement()
			.satisfies((event) -> assertThat(event.getFormattedMessage())
				.contains("client_request=roots outcome=answered"));
		assertThat(ToolClientLog.of(null, CALL).canListRoots()).isFalse();
		assertThatExceptionOfType(ToolClientUnavailableException.class)
			.isThrownBy(() -> ToolClientLog.of(null, CALL).roots())
			.withMessageContaining("Tool 'book_table' cannot ask its client for roots");
	}

	private static class AnsweringClient implements ToolClient {

		@Override
		public void log(Level level, String message) {
		}

		@Override
		public boolean canElicit() {
			return true;
		}

		@Override
		public ElicitationResult elicit(ElicitationRequest request) {
			return new ElicitationResult(ElicitationResult.Action.ACCEPT, Map.of("card", "4111 1111 1111 1111"));
		}

		@Override
		public boolean canSample() {
			return true;
		}

		@Override
		public SamplingResult sample(SamplingRequest request) {
			return new SamplingResult("the secret plan, in short", "m1", "endTurn");
		}

	}

}
