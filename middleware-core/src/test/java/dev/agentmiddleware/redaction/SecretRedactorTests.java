package dev.agentmiddleware.redaction;

import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import static org.assertj.core.api.Assertions.assertThat;

class SecretRedactorTests {

	private final SecretRedactor redactor = SecretRedactor.withDefaults();

	@Test
	void secretKeysMatchIgnoringCaseAndSeparators() {
		assertThat(this.redactor.isSecretKey("password")).isTrue();
		assertThat(this.redactor.isSecretKey("Password")).isTrue();
		assertThat(this.redactor.isSecretKey("API_KEY")).isTrue();
		assertThat(this.redactor.isSecretKey("x-api-key")).isTrue();
		assertThat(this.redactor.isSecretKey("apiKey")).isTrue();
		assertThat(this.redactor.isSecretKey("Authorization")).isTrue();
		assertThat(this.redactor.isSecretKey("refresh_token")).isTrue();
		assertThat(this.redactor.isSecretKey("session-cookie")).isTrue();
		assertThat(this.redactor.isSecretKey("city")).isFalse();
		assertThat(this.redactor.isSecretKey("path")).isFalse();
	}

	@Test
	void keysThatMerelyContainASecretWordAreNotSecret() {
		assertThat(this.redactor.isSecretKey("client_secret")).isTrue();
		assertThat(this.redactor.isSecretKey("aws_secret_access_key")).isTrue();
		assertThat(this.redactor.isSecretKey("spring.datasource.password")).isTrue();
		assertThat(this.redactor.isSecretKey("passwordHash")).isTrue();
		assertThat(this.redactor.isSecretKey("XAPIKey")).isTrue();
		assertThat(this.redactor.isSecretKey("credentials")).isTrue();
		assertThat(this.redactor.isSecretKey("my-secret-notes.txt")).isFalse();
		assertThat(this.redactor.isSecretKey("secretariat")).isFalse();
		assertThat(this.redactor.isSecretKey("token_count")).isFalse();
		assertThat(this.redactor.isSecretKey("tokenizer")).isFalse();
	}

	@Test
	void configuredKeysReplaceTheDefaults() {
		SecretRedactor custom = SecretRedactor.of(List.of("pin-code"));
		assertThat(custom.isSecretKey("PIN_CODE")).isTrue();
		assertThat(custom.isSecretKey("password")).isFalse();
	}

	@Test
	void textKeepsOrdinaryValuesAndHidesSecretOnes() {
		assertThat(this.redactor.redactText("login failed for user=ada password=hunter2, retry"))
			.isEqualTo("login failed for user=ada password=[REDACTED], retry");
		assertThat(this.redactor.redactText("config {\"apiKey\": \"sk-123\", \"region\": \"eu\"}"))
			.isEqualTo("config {\"apiKey\": \"[REDACTED]\", \"region\": \"eu\"}");
		assertThat(this.redactor.redactText("X-Api-Key: abc123 rejected")).isEqualTo("X-Api-Key: [REDACTED] rejected");
	}

	@Test
	void authorizationTokensAreHidden() {
		assertThat(this.redactor.redactText("upstream said 401 for Bearer eyJhbGciOi.abc.def"))
			.isEqualTo("upstream said 401 for Bearer [REDACTED]");
	}

	@Test
	void textWithoutSecretsIsUnchanged() {
		String text = "Path 'notes/a.txt' is outside the workspace: size=12";
		assertThat(this.redactor.redactText(text)).isEqualTo(text);
	}

	@Test
	void abbreviatedPasswordsAreSecretOnlyAfterAnotherWord() {
		assertThat(this.redactor.isSecretKey("DB_PASS")).isTrue();
		assertThat(this.redactor.isSecretKey("DB_PWD")).isTrue();
		assertThat(this.redactor.isSecretKey("smtpPass")).isTrue();
		assertThat(this.redactor.isSecretKey("mail.pass.value")).isTrue();
		assertThat(this.redactor.isSecretKey("pass")).isFalse();
		assertThat(this.redactor.isSecretKey("PWD")).isFalse();
		assertThat(this.redactor.isSecretKey("bypass")).isFalse();
		assertThat(this.redactor.isSecretKey("PASS_MAX_DAYS")).isFalse();
		assertThat(this.redactor.isSecretKey("DB_PASS_FILE")).isFalse();
		assertThat(SecretRedactor.of(List.of("ssn")).isSecretKey("DB_PASS")).isFalse();
	}

	@Test
	void passphrasesAreSecret() {
		assertThat(this.redactor.isSecretKey("passphrase")).isTrue();
		assertThat(this.redactor.isSecretKey("GPG_PASSPHRASE")).isTrue();
		assertThat(this.redactor.isSecretKey("keyPassphrase")).isTrue();
	}

	static Stream<String> adversarialTexts() {
		int size = 1 << 20;
		return Stream
			.of("eyJaaaaaaaaaa.", " eyJaaaaaaaaaa.b", "ghp_", " github_pat_aaaa_", "<password ", "<password>x<",
					" a:1:b:c", "a:1:b:c ", "machine a login ", "User name,Password\n", "a,", "Private-Lines: 9999\n",
					"-----BEGIN PGP PRIVATE KEY BLOCK-----", "'password' => ", "https://u:p/", "define('",
					"\"auth\": \"", "a@:")
			.map((unit) -> unit.repeat(size / unit.length() + 1));
	}

	@ParameterizedTest
	@MethodSource("adversarialTexts")
	void largeAdversarialTextsAreRedactedInOnePass(String text) {
		// Not a timing assertion: a regular expression that backtracks catastrophically
		// would not return at all. The scan itself: the pre-check rules out some texts.
		assertThat(this.redactor.redactCandidates(text)).isNotNull();
	}

}
