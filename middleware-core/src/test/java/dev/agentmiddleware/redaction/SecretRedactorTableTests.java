package dev.agentmiddleware.redaction;

import java.util.stream.Stream;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.params.provider.Arguments.arguments;

/**
 * What {@link SecretRedactor#redactText(String)} must hide and what it must leave exactly as it was, one row per
 * string. Rows that hide are written as input and expected output; rows that keep expect the input unchanged.
 */
class SecretRedactorTableTests {

	private static final String R = SecretRedactor.REDACTED;

	private final SecretRedactor redactor = SecretRedactor.withDefaults();

	static Stream<Arguments> hidden() {
		return Stream.of(
				// URL query and fragment parameters
				arguments("GET https://api.example.org/v1?api_key=sk-live-123 failed",
						"GET https://api.example.org/v1?api_key=" + R + " failed"),
				arguments("https://api.example.org/v1?city=Lisbon&apiKey=abc123&units=metric",
						"https://api.example.org/v1?city=Lisbon&apiKey=" + R + "&units=metric"),
				arguments("see https://h.example/cb#access_token=eyJ0.x.y&state=42",
						"see https://h.example/cb#access_token=" + R + "&state=42"),
				arguments("https://h.example/?x-api-key=k1;token=t2", "https://h.example/?x-api-key=" + R + ";token=" + R),
				arguments("https://h.example/a?api%5Fkey=k1", "https://h.example/a?api%5Fkey=" + R),
				arguments("/v1/items?password=pw1&page=2", "/v1/items?password=" + R + "&page=2"),
				arguments("(https://h.example/?token=abc).", "(https://h.example/?token=" + R + ")."),
				// URL user-info
				arguments("connect to https://user:pass@db.example.org/ refused",
						"connect to https://" + R + "@db.example.org/ refused"),
				arguments("jdbc:postgresql://agent:s3cr3t@127.0.0.1:5432/app",
						"jdbc:postgresql://" + R + "@127.0.0.1:5432/app"),
				arguments("clone https://ghp_abc123@github.com/o/r.git", "clone https://" + R + "@github.com/o/r.git"),
				arguments("ftp://anonymous:me@example.org@ftp.example.org/pub",
						"ftp://" + R + "@ftp.example.org/pub"),
				arguments("redis://:p4ss@cache:6379/0?password=p4ss", "redis://" + R + "@cache:6379/0?password=" + R),
				// key=value and key: value in free text
				arguments("login failed for user=ada password=hunter2, retry",
						"login failed for user=ada password=" + R + ", retry"),
				arguments("X-Api-Key: abc123 rejected", "X-Api-Key: " + R + " rejected"),
				arguments("client_secret=s3cr3t&grant_type=client_credentials",
						"client_secret=" + R + "&grant_type=client_credentials"),
				arguments("spring.datasource.password=topsecret", "spring.datasource.password=" + R),
				arguments("AWS_SECRET_ACCESS_KEY=wJalrXUtnFEMI/K7MDENG", "AWS_SECRET_ACCESS_KEY=" + R),
				arguments("refresh_token: 1//0gAbc", "refresh_token: " + R),
				arguments("passwordConfirmation=hunter2", "passwordConfirmation=" + R),
				arguments("DB_PASSWORD2=x9", "DB_PASSWORD2=" + R),
				arguments("token : abc123", "token : " + R),
				arguments("Set-Cookie: SESSION=abc; Path=/; HttpOnly", "Set-Cookie: " + R),
				arguments("credentials=a:b rejected", "credentials=" + R + " rejected"),
				arguments("mypassword=hunter2", "mypassword=" + R),
				// JSON fragments, plain and escaped, complete and cut
				arguments("config {\"apiKey\": \"sk-123\", \"region\": \"eu\"}",
						"config {\"apiKey\": \"" + R + "\", \"region\": \"eu\"}"),
				arguments("{\"password\":\"with \\\"quotes\\\" inside\",\"user\":\"ada\"}",
						"{\"password\":\"" + R + "\",\"user\":\"ada\"}"),
				arguments("body={\\\"token\\\":\\\"abc\\\",\\\"n\\\":1}", "body={\\\"token\\\":\\\"" + R + "\\\",\\\"n\\\":1}"),
				arguments("{\"pin\": 1, \"secret\": 1234}", "{\"pin\": 1, \"secret\": " + R + "}"),
				arguments("{\"password\": \"cut-off-val", "{\"password\": \"" + R),
				arguments("{'api_key': 'k-1'}", "{'api_key': '" + R + "'}"),
				// Authorization, every scheme
				arguments("Authorization: Bearer eyJhbGciOi.abc.def", "Authorization: Bearer " + R),
				arguments("Authorization: Basic dXNlcjpwYXNz", "Authorization: Basic " + R),
				arguments("Authorization: Token abc", "Authorization: Token " + R),
				arguments("authorization: token ghp_16C7e42F292c6912E7710c838347Ae178B4a",
						"authorization: token " + R),
				arguments("Authorization: Digest username=\"Mufasa\", realm=\"x@h\", response=\"6629fae49393a053\", opaque=\"5c\" sent",
						"Authorization: Digest " + R + " sent"),
				arguments("Authorization: AWS4-HMAC-SHA256 Credential=AKIA/20250101/us-east-1/s3/aws4_request, SignedHeaders=host, Signature=fe5f80f7",
						"Authorization: AWS4-HMAC-SHA256 " + R),
				arguments("Proxy-Authorization: Negotiate YIIGhgYGKwYBBQUCoIIGejCCBnag",
						"Proxy-Authorization: Negotiate " + R),
				arguments("Authorization: CustomScheme k=v1", "Authorization: CustomScheme " + R),
				arguments("Authorization: justatoken", "Authorization: " + R),
				arguments("{\"Authorization\": \"Bearer abc.def\"}", "{\"Authorization\": \"Bearer " + R + "\"}"),
				arguments("headers={Authorization=Basic Zm9vOmJhcg==, Accept=json}",
						"headers={Authorization=Basic " + R + ", Accept=json}"),
				arguments("upstream said 401 for Bearer eyJhbGciOi.abc.def", "upstream said 401 for Bearer " + R),
				arguments("sent Digest username=\"a\", response=\"b1\" twice", "sent Digest " + R + " twice"),
				arguments("used token ghp_abc123DEF456", "used token " + R),
				arguments("{\"tokens\": [\"t-1\", \"t-2\"], \"n\": 2}", "{\"tokens\": " + R + ", \"n\": 2}"),
				arguments("credentials={user=ada, password=pw}; next", "credentials=" + R + "; next"),
				arguments("https://h.example/search?q=password:abc123&page=1",
						"https://h.example/search?q=password:" + R + "&page=1"),
				arguments("Authorization:Bearer abc123", "Authorization:Bearer " + R),
				arguments("/cb?authorization=Bearer%20abc&x=1", "/cb?authorization=" + R + "&x=1"),
				// private keys
				arguments("-----BEGIN RSA PRIVATE KEY-----\nMIIEow\n-----END RSA PRIVATE KEY-----",
						"-----BEGIN RSA PRIVATE KEY-----" + R + "-----END RSA PRIVATE KEY-----"));
	}

	static Stream<String> kept() {
		return Stream.of("java.nio.file.NoSuchFileException: my-secret-notes.txt: no such file",
				"Path 'notes/a.txt' is outside the workspace: size=12",
				"Tool 'read_file' failed: NoSuchFileException: secret-plans.md",
				"secretariat: closed on Mondays", "token_count=1500 exceeds max_token_count=1000",
				"tokenizer: cl100k_base", "password-reset.html: not found",
				"GET https://api.example.org/v1?city=Lisbon&units=metric returned 503",
				"see https://registry.npmjs.org/@scope/pkg for details",
				"mailto:ada@example.org is not a URL with a password", "Token expired at 12:00",
				"Basic auth failed", "Bearer token missing", "Digest mismatch for file.txt",
				"time=12:30:00 duration=5ms", "ratio 3:2 and a==b", "api key rotation scheduled",
				"The secret to good tests: small steps", "file tokens.txt: 3 lines",
				"{\"city\": \"Lisbon\", \"units\": \"metric\"}", "Weather in Lisbon: 21°C, sunny",
				"user=ada role=admin", "https://example.org/path/to/secret-page.html",
				"Invalid value for 'secret_santa_list.csv': expected a file", "");
	}

	@ParameterizedTest
	@MethodSource("hidden")
	void hidesSecrets(String text, String expected) {
		assertThat(this.redactor.redactText(text)).isEqualTo(expected);
	}

	@ParameterizedTest
	@MethodSource("kept")
	void leavesOrdinaryTextUnchanged(String text) {
		assertThat(this.redactor.redactText(text)).isEqualTo(text);
	}

}
