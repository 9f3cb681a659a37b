package dev.agentmiddleware.autoconfigure.springai;

import java.io.IOException;
import java.time.Duration;
import java.util.List;

import dev.agentmiddleware.authorization.AuthorizationMiddleware.ToolForbiddenException;
import dev.agentmiddleware.binding.InvalidToolArgumentsException;
import dev.agentmiddleware.ratelimit.ToolRateLimitedException;
import dev.agentmiddleware.redaction.SecretRedactor;
import dev.agentmiddleware.tool.ToolDeniedException;
import dev.agentmiddleware.tool.ToolSessionCrashedException;
import dev.agentmiddleware.tool.TransientToolException;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

class DefaultToolErrorFormatterTests {

	private final DefaultToolErrorFormatter formatter = new DefaultToolErrorFormatter(SecretRedactor.withDefaults(),
			120);

	@Test
	void aToolsOwnExceptionShowsItsTypeAndFirstLineOnly() {
		String text = this.formatter.format("read_file", new IOException("disk full\n\tat java.io.File.write"));
		assertThat(text).isEqualTo("Tool 'read_file' failed: IOException: disk full");
	}

	@Test
	void anExceptionWithoutMessageShowsItsType() {
		assertThat(this.formatter.format("read_file", new NullPointerException()))
			.isEqualTo("Tool 'read_file' failed: NullPointerException");
	}

	@Test
	void theChainsOwnFailuresKeepTheirActionableMessage() {
		assertThat(this.formatter.format("get_weather",
				new ToolRateLimitedException("get_weather", "rate-limit", "5 calls per 1m", Duration.ofSeconds(12))))
			.isEqualTo("Tool 'get_weather' is rate limited (5 calls per 1m); retry in about 12s");
		assertThat(this.formatter.format("get_weather",
				new InvalidToolArgumentsException("get_weather", "city", "is required: expected a string")))
			.isEqualTo("Invalid arguments for tool 'get_weather', parameter 'city': is required: expected a string");
	}

	@Test
	void signalsAToolThrowsAreTheToolsOwnFailures() {
		assertThat(this.formatter.format("get_rate", new TransientToolException("exchange-rate service busy")))
			.isEqualTo("Tool 'get_rate' failed: TransientToolException: exchange-rate service busy");
		assertThat(this.formatter.format("open_page", new ToolSessionCrashedException("browser process is gone")))
			.isEqualTo("Tool 'open_page' failed: ToolSessionCrashedException: browser process is gone");
	}

	@Test
	void aDenialTellsTheModelNotToRetry() {
		assertThat(this.formatter.format("delete_file", new ToolDeniedException("delete_file", "approval", "no")))
			.endsWith(DefaultToolErrorFormatter.DENIAL_HINT);
	}

	@Test
	void aDenialIsTwoCleanSentencesTheReasonThenTheHint() {
		DefaultToolErrorFormatter formatter = new DefaultToolErrorFormatter(SecretRedactor.withDefaults(), 2000);
		assertThat(formatter.format("delete_file",
				new ToolDeniedException("delete_file", "approval", "alice denied it: keep the logs")))
			.isEqualTo("Call of tool 'delete_file' was denied by approval: alice denied it: keep the logs. "
					+ "Do not retry this call unless the user asks you to.");
		assertThat(formatter.format("delete_file",
				new ToolDeniedException("delete_file", "approval", "alice denied it: not today!")))
			.isEqualTo("Call of tool 'delete_file' was denied by approval: alice denied it: not today! "
					+ "Do not retry this call unless the user asks you to.");
	}

	@Test
	void aLongDenialIsCutBeforeTheHintNeverInIt() {
		String text = this.formatter.format("delete_file",
				new ToolDeniedException("delete_file", "approval", "alice denied it: " + "x".repeat(300)));
		assertThat(text).hasSizeLessThanOrEqualTo(120)
			.endsWith("…. " + DefaultToolErrorFormatter.DENIAL_HINT)
			.startsWith("Call of tool 'delete_file' was denied by approval: alice denied");
	}

	@Test
	void aCallerWithoutTheAuthoritiesIsToldNotToRetryAtAll() {
		assertThat(this.formatter.format("delete_file",
				new ToolForbiddenException("delete_file", "authorization", List.of("SCOPE_files.write"), true)))
			.isEqualTo(
					"Tool 'delete_file' requires authority SCOPE_files.write, which the caller does not have. Do not "
							+ "retry this call.");
	}

	@Test
	void secretsAreRedacted() {
		assertThat(this.formatter.format("call_api", new IllegalStateException("rejected token=abc123")))
			.isEqualTo("Tool 'call_api' failed: IllegalStateException: rejected token=[REDACTED]");
	}

	@Test
	void secretsInUrlsAndAuthorizationValuesAreRedacted() {
		assertThat(this.formatter.format("call_api",
				new IllegalStateException("GET https://ada:pw-42@api.example.org/v1?api_key=k-99")))
			.isEqualTo("Tool 'call_api' failed: IllegalStateException: GET https://[REDACTED]@api.example.org/v1"
					+ "?api_key=[REDACTED]");
		assertThat(this.formatter.format("call_api", new IllegalStateException("Authorization: Token t-77")))
			.isEqualTo("Tool 'call_api' failed: IllegalStateException: Authorization: Token [REDACTED]");
	}

	@Test
	void aFileNameContainingASecretWordIsKept() {
		assertThat(this.formatter.format("read_file",
				new java.nio.file.NoSuchFileException("my-secret-notes.txt: no such file")))
			.isEqualTo("Tool 'read_file' failed: NoSuchFileException: my-secret-notes.txt: no such file");
	}

	@Test
	void longTextIsCutAtTheLimit() {
		String text = this.formatter.format("read_file", new IllegalStateException("x".repeat(500)));
		assertThat(text).hasSize(120).endsWith("…");
	}

	@Test
	void aTinyLimitIsRefused() {
		assertThatIllegalArgumentException()
			.isThrownBy(() -> new DefaultToolErrorFormatter(SecretRedactor.withDefaults(), 5))
			.withMessageContaining("at least 40");
	}

}
