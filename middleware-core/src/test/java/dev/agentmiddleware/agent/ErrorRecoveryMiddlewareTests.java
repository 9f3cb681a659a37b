package dev.agentmiddleware.agent;

import java.util.List;

import dev.agentmiddleware.agent.AgentMiddleware.IterationResult;
import dev.agentmiddleware.agent.AgentRun.AgentEvent;
import dev.agentmiddleware.agent.LoopGuard.LoopGuardPolicy;
import dev.agentmiddleware.approval.ApprovalAuditListener.ApprovalOutcome;
import dev.agentmiddleware.approval.ApprovalDeniedException;
import dev.agentmiddleware.redaction.SecretRedactor;
import dev.agentmiddleware.thread.ThreadStore.InMemoryThreadStore;
import dev.agentmiddleware.tool.ToolInputRequiredException;
import dev.agentmiddleware.tool.UnknownToolException;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class ErrorRecoveryMiddlewareTests {

	private final ErrorRecoveryMiddleware recovery = new ErrorRecoveryMiddleware(SecretRedactor.withDefaults());

	private final AgentRun run = AgentRun.start("t1", AgentMiddleware.compose(List.of(this.recovery)),
			new InMemoryThreadStore(), new LoopGuard(LoopGuardPolicy.UNLIMITED, new InMemoryThreadStore()));

	@Test
	void afterAnIterationEndingInAToolErrorTheNextInputCarriesTheErrorAndTheHint() {
		IllegalStateException error = new IllegalStateException("Disk full while writing report.txt");
		this.run.beginIteration(List.of());
		this.run.endIteration(new IterationResult(null, List.of(AgentEvent.toolResult("c1", "read_file", "ok"),
				AgentEvent.toolError("c2", "write_file", "Tool 'write_file' failed", error))));
		assertThat(this.run.takeNextInput()).singleElement().satisfies((text) -> {
			assertThat(text).startsWith("The tool 'write_file' failed with java.lang.IllegalStateException: "
					+ "Disk full while writing report.txt\nStack trace (truncated):\n");
			assertThat(text).contains("at dev.agentmiddleware.agent.ErrorRecoveryMiddlewareTests");
			assertThat(text).endsWith("\nConsider an alternative approach if the same error occurs again.");
		});
		assertThat(this.run.takeNextInput()).as("only the next iteration").isEmpty();
	}

	@Test
	void nothingIsAddedWhenTheLastEventIsNotAnError() {
		this.run.beginIteration(List.of());
		this.run
			.endIteration(new IterationResult(null, List.of(AgentEvent.toolError("c1", "write_file", "failed", null),
					AgentEvent.toolResult("c2", "read_file", "ok"))));
		assertThat(this.run.takeNextInput()).isEmpty();
	}

	@Test
	void aCallWaitingForItsClientsAnswerGetsNoRecoveryMessage() {
		this.run.beginIteration(List.of());
		this.run.endIteration(new IterationResult(null,
				List.of(AgentEvent.toolError("c1", "book_table", "Tool 'book_table' asked its client for elicitation",
						new ToolInputRequiredException("book_table", "elicitation")))));
		assertThat(this.run.takeNextInput()).isEmpty();
	}

	@Test
	void aDenialIsADecisionAndGetsNoRecoveryMessage() {
		this.run.beginIteration(List.of());
		this.run.endIteration(new IterationResult(null,
				List.of(AgentEvent.toolError("c1", "delete_file",
						"Call of tool 'delete_file' was denied by approval: alice denied it: keep the logs. "
								+ "Do not retry this call unless the user asks you to.",
						new ApprovalDeniedException("delete_file", "approval", ApprovalOutcome.DENIED,
								"alice denied it: keep the logs")))));
		assertThat(this.run.takeNextInput()).isEmpty();
	}

	@Test
	void aCallOfAnUnknownToolGetsTheRecoveryMessageNamingTheToolsThatExist() {
		this.run.beginIteration(List.of());
		this.run.endIteration(new IterationResult(null,
				List.of(AgentEvent.toolError("c1", "get_wether", "No tool named 'get_wether'; known tools: get_weather",
						new UnknownToolException("get_wether", List.of("get_weather"))))));
		assertThat(this.run.takeNextInput()).singleElement()
			.isEqualTo("The tool 'get_wether' failed with dev.agentmiddleware.tool.UnknownToolException: "
					+ "No tool named 'get_wether'; known tools: get_weather\n" + ErrorRecoveryMiddleware.HINT);
	}

	@Test
	void truncatesTheStackTraceTo500Characters() {
		Exception deep = deepException(60);
		String text = this.recovery.format(AgentEvent.toolError("c1", "crawl", "failed", deep));
		String stack = text
			.substring(text.indexOf("Stack trace (truncated):\n") + "Stack trace (truncated):\n".length());
		assertThat(stack).hasSize(ErrorRecoveryMiddleware.MAX_STACK_TRACE_CHARS).endsWith("...");
	}

	@Test
	void redactsSecretsInTheMessageAndTheStackTrace() {
		RuntimeException cause = new RuntimeException("upstream said token=abc123");
		RuntimeException error = new RuntimeException(
				"login refused (password=hunter2) with Authorization: Bearer xyz.987", cause);
		String text = this.recovery.format(AgentEvent.toolError("c1", "login", "failed", error));
		assertThat(text).doesNotContain("hunter2").doesNotContain("xyz.987").contains("[REDACTED]");
		String causeText = this.recovery.format(AgentEvent.toolError("c1", "login", "failed", deepCause(cause)));
		assertThat(causeText).doesNotContain("abc123");
	}

	@Test
	void anErrorKnownOnlyByItsTextIsGivenByItsRedactedText() {
		String text = this.recovery.format(AgentEvent.toolError("c1", "fetch", "HTTP 500, api-key=s3cr3t", null));
		assertThat(text).isEqualTo("The tool 'fetch' failed: HTTP 500, api-key=[REDACTED]");
	}

	private static RuntimeException deepCause(Throwable cause) {
		return new RuntimeException("wrapper", cause);
	}

	private static Exception deepException(int depth) {
		if (depth == 0) {
			return new IllegalArgumentException("bottom");
		}
		return deepException(depth - 1);
	}

}
