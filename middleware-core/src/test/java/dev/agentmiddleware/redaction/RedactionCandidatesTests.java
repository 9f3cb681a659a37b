package dev.agentmiddleware.redaction;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The pre-check of {@link SecretRedactor#redactText(String)}: it rules out the texts that
 * hold nothing to redact, and never one that the full scan would change.
 */
class RedactionCandidatesTests {

	private static final String R = SecretRedactor.REDACTED;

	private final SecretRedactor redactor = SecretRedactor.withDefaults();

	/**
	 * Texts that the redaction tests of this and other packages redact: the rows of
	 * {@link SecretRedactorTableTests}, then copies of the inputs of the other tests.
	 */
	static Stream<String> redactedTexts() {
		Stream<String> table = Stream.concat(SecretRedactorTableTests.hidden().map((row) -> (String) row.get()[0]),
				SecretRedactorTableTests.credentialFormats().map((row) -> (String) row.get()[1]));
		Stream<String> copied = Stream.of(
				// SecretRedactorTests
				"login failed for user=ada password=hunter2, retry",
				"config {\"apiKey\": \"sk-123\", \"region\": \"eu\"}", "X-Api-Key: abc123 rejected",
				"upstream said 401 for Bearer eyJhbGciOi.abc.def",
				// results, logging, agent and approval tests
				"db: postgres://app:s3cr3t@db.internal:5432/orders",
				"Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.e30.abc",
				"key:\n-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA7\n-----END RSA PRIVATE KEY-----\n",
				"spring.datasource.url=jdbc:postgresql://db/app\nspring.datasource.password=hunter2\n",
				"see https://admin:hunter2@example.com/", "upstream said token=abc123",
				"login refused (password=hunter2) with Authorization: Bearer xyz.987", "HTTP 500, api-key=s3cr3t",
				"https://api.example.org/v1?api_key=sk-live-1&city=Lisbon",
				"Authorization: Digest username=\"ada\", response=\"6629fae4\"", "token=abc123 and a long tail of text",
				"https://u:p@example.org/x", "Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2lnbmF0dXJl");
		return Stream.concat(table,
				Stream.concat(copied, withoutTriggerCharacters().map((row) -> (String) row.get()[0])));
	}

	/**
	 * Redacted texts without {@code :}, {@code =} or {@code <}: only the words let them
	 * through. Each as text and redacted text.
	 */
	static Stream<Arguments> withoutTriggerCharacters() {
		String gh = "u8jzPde0IgxLd6GncfBAepfJBd0Kh8oOOL8d";
		String jwt = "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0"
				+ ".dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U";
		return Stream.of(Arguments.of("upstream said 401 for Bearer abc123def", "upstream said 401 for Bearer " + R),
				Arguments.of("BASIC dXNlcjpwYXNzd29yZA", "BASIC " + R),
				Arguments.of("used token ghp_abc123DEF456", "used token " + R),
				Arguments.of("bEaReR\tAbCdEfGhIj", "bEaReR\t" + R),
				Arguments.of("Negotiate YIIGhgYGKwYBBQUCoIIGejCCBnag", "Negotiate " + R),
				Arguments.of("machine api.example.org login ada password s3cr3t",
						"machine api.example.org login ada password " + R),
				Arguments.of("default login anonymous password guest", "default login anonymous password " + R),
				Arguments.of("define('DB_PASSWORD', 'hunter2');", "define('DB_PASSWORD', '" + R + "');"),
				Arguments.of("found ghp_" + gh + " in .env", "found ghp_" + R + " in .env"),
				Arguments.of("session " + jwt + " expired", "session " + R + " expired"),
				Arguments.of("-----BEGIN RSA PRIVATE KEY-----\nMIIEow\n-----END RSA PRIVATE KEY-----",
						"-----BEGIN RSA PRIVATE KEY-----" + R + "-----END RSA PRIVATE KEY-----"),
				Arguments.of("Access key ID,Secret access key\nAKIAIOSFODNN7EXAMPLE,wJalrXUtnFEMI/K7MDENG\n",
						"Access key ID,Secret access key\nAKIAIOSFODNN7EXAMPLE," + R + "\n"));
	}

	@ParameterizedTest
	@MethodSource("redactedTexts")
	void neverRulesOutATextThatTheScanRedacts(String text) {
		assertThat(this.redactor.redactCandidates(text)).isNotEqualTo(text);
		assertThat(RedactionCandidates.possibleIn(text)).isTrue();
	}

	@Test
	void neverRulesOutAPrefixOrSuffixOfARedactedTextThatTheScanRedacts() {
		List<String> ruledOut = new ArrayList<>();
		redactedTexts().forEach((text) -> {
			for (int i = 1; i < text.length(); i++) {
				for (String part : List.of(text.substring(0, i), text.substring(i))) {
					if (!RedactionCandidates.possibleIn(part) && !this.redactor.redactCandidates(part).equals(part)) {
						ruledOut.add(part);
					}
				}
			}
		});
		assertThat(ruledOut).isEmpty();
	}

	@ParameterizedTest
	@MethodSource("withoutTriggerCharacters")
	void redactsTextsWithoutTriggerCharactersAsBefore(String text, String expected) {
		assertThat(this.redactor.redactCandidates(text)).isEqualTo(expected);
		assertThat(this.redactor.redactText(text)).isEqualTo(expected);
	}

	@ParameterizedTest
	@ValueSource(strings = { "", "hello", "load-17-4711", "12345", "3.14159", "-----", "ghost_town",
			"The quarterly report lists 14 open tickets, 3 of them older than 30 days; most concern the export job.",
			"Weather in Lisbon 21°C, sunny", "line one\nline two\n", "Ünïcödé ∑ 😀 text" })
	void rulesOutPlainTextsAndReturnsTheSameInstance(String text) {
		assertThat(RedactionCandidates.possibleIn(text)).isFalse();
		assertThat(this.redactor.redactText(text)).isSameAs(text);
	}

	@ParameterizedTest
	@ValueSource(strings = { "Bearer", "BASIC", "token", "ToKeN", "machine", "default", "define", "ghp_", "github_pat_",
			"eyJ", "-----BEGIN ", "a,b\nc", "a:b", "a=b", "<a" })
	void letsThroughTextsWithATriggerWordOrCharacter(String text) {
		assertThat(RedactionCandidates.possibleIn(text)).isTrue();
	}

	@Test
	void whateverTheScanChangesInRandomTextsThePreCheckLetsThrough() {
		Random random = new Random(20261128L);
		String alphabet = ":=<>,\n\r\t  -_./\\\"'@?&#()[]{}*0123456789abcdeghiklmnoprstuyBEGIJKPRTVY\u212a\u017f\u0130";
		List<String> fragments = List.of("Bearer", "BASIC", "token", "Token", "digest", "oauth", "mac", "ntlm",
				"machine", "default", "login", "password", "account", "define(", "'DB_PASSWORD'", "'AUTH_KEY'", ", ",
				"ghp_", "gho_", "github_pat_", "u8jzPde0IgxLd6GncfBAepfJBd0Kh8oOOL8d", "eyJhbGciOi", "abcDEF123", ".",
				"-----BEGIN RSA PRIVATE KEY-----", "-----END RSA PRIVATE KEY-----", "Private-Lines", "Private-MAC", "2",
				"user", "name", "secret", ",", "\n", " ", "\t", "\"", "'", "\\\"", ":", "=", "=>", "<", ">",
				"</password>", "https", "://", "@", "?", "&");
		int changed = 0;
		int changedWithoutTriggerCharacter = 0;
		List<String> ruledOut = new ArrayList<>();
		List<String> differs = new ArrayList<>();
		for (int n = 0; n < 8000; n++) {
			StringBuilder text = new StringBuilder();
			int length = 1 + random.nextInt(24);
			for (int i = 0; i < length; i++) {
				if (n % 2 == 0) {
					text.append(alphabet.charAt(random.nextInt(alphabet.length())));
				}
				else {
					text.append(fragments.get(random.nextInt(fragments.size())));
				}
			}
			String each = text.toString();
			String scanned = this.redactor.redactCandidates(each);
			if (!this.redactor.redactText(each).equals(scanned)) {
				differs.add(each);
			}
			if (!scanned.equals(each)) {
				changed++;
				if (each.indexOf(':') < 0 && each.indexOf('=') < 0 && each.indexOf('<') < 0) {
					changedWithoutTriggerCharacter++;
				}
				if (!RedactionCandidates.possibleIn(each)) {
					ruledOut.add(each);
				}
			}
		}
		assertThat(ruledOut).isEmpty();
		assertThat(differs).isEmpty();
		// The strings exercise the scan, also where only a word lets them through
		assertThat(changed).isGreaterThan(500);
		assertThat(changedWithoutTriggerCharacter).isGreaterThan(100);
	}

}
