package dev.agentmiddleware.redaction;

import java.util.stream.Stream;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.params.provider.Arguments.arguments;

/**
 * What {@link SecretRedactor#redactText(String)} must hide and what it must leave exactly
 * as it was, one row per string. Rows that hide are written as input and expected output;
 * rows that keep expect the input unchanged.
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
				arguments("https://h.example/?x-api-key=k1;token=t2",
						"https://h.example/?x-api-key=" + R + ";token=" + R),
				arguments("https://h.example/a?api%5Fkey=k1", "https://h.example/a?api%5Fkey=" + R),
				arguments("/v1/items?password=pw1&page=2", "/v1/items?password=" + R + "&page=2"),
				arguments("(https://h.example/?token=abc).", "(https://h.example/?token=" + R + ")."),
				// URL user-info
				arguments("connect to https://user:pass@db.example.org/ refused",
						"connect to https://" + R + "@db.example.org/ refused"),
				arguments("jdbc:postgresql://agent:s3cr3t@127.0.0.1:5432/app",
						"jdbc:postgresql://" + R + "@127.0.0.1:5432/app"),
				arguments("clone https://ghp_abc123@github.com/o/r.git", "clone https://" + R + "@github.com/o/r.git"),
				arguments("ftp://anonymous:me@example.org@ftp.example.org/pub", "ftp://" + R + "@ftp.example.org/pub"),
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
				arguments("DB_PASSWORD2=x9", "DB_PASSWORD2=" + R), arguments("token : abc123", "token : " + R),
				arguments("Set-Cookie: SESSION=abc; Path=/; HttpOnly", "Set-Cookie: " + R),
				arguments("credentials=a:b rejected", "credentials=" + R + " rejected"),
				arguments("mypassword=hunter2", "mypassword=" + R),
				// JSON fragments, plain and escaped, complete and cut
				arguments("config {\"apiKey\": \"sk-123\", \"region\": \"eu\"}",
						"config {\"apiKey\": \"" + R + "\", \"region\": \"eu\"}"),
				arguments("{\"password\":\"with \\\"quotes\\\" inside\",\"user\":\"ada\"}",
						"{\"password\":\"" + R + "\",\"user\":\"ada\"}"),
				arguments("body={\\\"token\\\":\\\"abc\\\",\\\"n\\\":1}",
						"body={\\\"token\\\":\\\"" + R + "\\\",\\\"n\\\":1}"),
				arguments("{\"pin\": 1, \"secret\": 1234}", "{\"pin\": 1, \"secret\": " + R + "}"),
				arguments("{\"password\": \"cut-off-val", "{\"password\": \"" + R),
				arguments("{'api_key': 'k-1'}", "{'api_key': '" + R + "'}"),
				// Authorization, every scheme
				arguments("Authorization: Bearer eyJhbGciOi.abc.def", "Authorization: Bearer " + R),
				arguments("Authorization: Basic dXNlcjpwYXNz", "Authorization: Basic " + R),
				arguments("Authorization: Token abc", "Authorization: Token " + R),
				arguments("authorization: token ghp_16C7e42F292c6912E7710c838347Ae178B4a", "authorization: token " + R),
				arguments(
						"Authorization: Digest username=\"Mufasa\", realm=\"x@h\", response=\"6629fae49393a053\", opaque=\"5c\" sent",
						"Authorization: Digest " + R + " sent"),
				arguments(
						"Authorization: AWS4-HMAC-SHA256 Credential=AKIA/20250101/us-east-1/s3/aws4_request, SignedHeaders=host, Signature=fe5f80f7",
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

	private static final String GH = "u8jzPde0IgxLd6GncfBAepfJBd0Kh8oOOL8d";

	private static final String GH_FINE_GRAINED = "KLzdocJ2isAjIhKtJ0RlgL_KOmxgJTeKdNnFRIBXuDL7DxtpYlSXpfKtHF4vUCsMehGAkWvj7FAc9QeWJK";

	private static final String JWT = "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0"
			+ ".dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U";

	/**
	 * Credential formats: the format, a text holding a secret, the text with only the
	 * secret hidden.
	 */
	static Stream<Arguments> credentialFormats() {
		return Stream.of(
				// PHP and Ruby arrays
				arguments("php array", "'password' => 'hunter2',", "'password' => '" + R + "',"),
				arguments("php array", "$db = ['db_password' => \"s3cr3t\", 'host' => 'db'];",
						"$db = ['db_password' => \"" + R + "\", 'host' => 'db'];"),
				arguments("ruby hash", "{:api_key => 'k-1', :region => 'eu'}",
						"{:api_key => '" + R + "', :region => 'eu'}"),
				// a slash in the password of a URL's user-info
				arguments("url user-info", "connect https://ada:pa/ss@db.example.org/app failed",
						"connect https://" + R + "@db.example.org/app failed"),
				arguments("url user-info", "redis://:pa/ss@cache:6379/0", "redis://" + R + "@cache:6379/0"),
				arguments("url user-info", "https://u:p/a@ss@h.example/x?y=1", "https://" + R + "@h.example/x?y=1"),
				// .netrc
				arguments("netrc", "machine api.example.org login ada password s3cr3t",
						"machine api.example.org login ada password " + R),
				arguments("netrc",
						"machine a.example\n  login ada\n  password s3cr3t\nmachine b.example login bob password \"two words\"\n",
						"machine a.example\n  login ada\n  password " + R + "\nmachine b.example login bob password \""
								+ R + "\"\n"),
				arguments("netrc", "machine ftp.example login u password p1 account a2",
						"machine ftp.example login u password " + R + " account " + R),
				arguments("netrc", "default login anonymous password guest@example.org",
						"default login anonymous password " + R),
				// Maven settings.xml and other XML
				arguments("settings.xml",
						"<server>\n  <id>central</id>\n  <username>ada</username>\n  <password>s3cr3t</password>\n</server>",
						"<server>\n  <id>central</id>\n  <username>ada</username>\n  <password>" + R
								+ "</password>\n</server>"),
				arguments("settings.xml", "<passphrase>my long phrase</passphrase>",
						"<passphrase>" + R + "</passphrase>"),
				arguments("settings.xml", "<privateKey>${user.home}/.ssh/id_rsa</privateKey>",
						"<privateKey>" + R + "</privateKey>"),
				arguments("xml", "<token type=\"bearer\">abc123</token>", "<token type=\"bearer\">" + R + "</token>"),
				// Docker config.json
				arguments("docker config.json",
						"{\"auths\": {\"https://index.docker.io/v1/\": {\"auth\": \"YWRhOnMzY3IzdA==\"}}}",
						"{\"auths\": {\"https://index.docker.io/v1/\": {\"auth\": \"" + R + "\"}}}"),
				arguments("docker config.json", "{\"auths\": {\"ghcr.io\": {\"identitytoken\": \"abc\"}}}",
						"{\"auths\": {\"ghcr.io\": {\"identitytoken\": \"" + R + "\"}}}"),
				// wp-config.php
				arguments("wp-config", "define('DB_PASSWORD', 'hunter2');", "define('DB_PASSWORD', '" + R + "');"),
				arguments("wp-config", "define( \"AUTH_KEY\", \"put your unique phrase here\" );",
						"define( \"AUTH_KEY\", \"" + R + "\" );"),
				arguments("wp-config", "define('SECURE_AUTH_SALT', 'x%y');",
						"define('SECURE_AUTH_SALT', '" + R + "');"),
				// PGP and PuTTY private keys
				arguments("pgp private key",
						"-----BEGIN PGP PRIVATE KEY BLOCK-----\n\nlQOYBGF\n=AbCd\n-----END PGP PRIVATE KEY BLOCK-----",
						"-----BEGIN PGP PRIVATE KEY BLOCK-----" + R + "-----END PGP PRIVATE KEY BLOCK-----"),
				arguments("putty private key",
						"PuTTY-User-Key-File-2: ssh-rsa\nEncryption: none\nComment: rsa-key\nPublic-Lines: 2\nAAAAB3Nza\nC1yc2E\n"
								+ "Private-Lines: 2\nAAABAQC\nx9QmZq\nPrivate-MAC: 8a2f0c\n",
						"PuTTY-User-Key-File-2: ssh-rsa\nEncryption: none\nComment: rsa-key\nPublic-Lines: 2\nAAAAB3Nza\nC1yc2E\n"
								+ "Private-Lines: 2\n" + R + "\nPrivate-MAC: " + R + "\n"),
				// .pgpass
				arguments("pgpass", "db.example.org:5432:app:agent:s3cr3t", "db.example.org:5432:app:agent:" + R),
				arguments("pgpass", "localhost:5432:app:agent:one\n*:*:*:postgres:pa\\:ss\n",
						"localhost:5432:app:agent:" + R + "\n*:*:*:postgres:" + R + "\n"),
				// credentials.csv (AWS) and other CSV exports with a secret column
				arguments("aws credentials.csv",
						"User name,Password,Access key ID,Secret access key,Console login link\n"
								+ "ada,P4ss!,AKIAIOSFODNN7EXAMPLE,wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY,https://1234.signin.aws.amazon.com/console",
						"User name,Password,Access key ID,Secret access key,Console login link\n" + "ada," + R
								+ ",AKIAIOSFODNN7EXAMPLE," + R + ",https://1234.signin.aws.amazon.com/console"),
				arguments("aws credentials.csv",
						"Access key ID,Secret access key\nAKIAIOSFODNN7EXAMPLE,wJalrXUtnFEMI/K7MDENG\n",
						"Access key ID,Secret access key\nAKIAIOSFODNN7EXAMPLE," + R + "\n"),
				arguments("csv export",
						"name,url,username,password\nexample,https://example.org/,ada,hunter2\nother,https://o.example/,bob,\"a,b\"",
						"name,url,username,password\nexample,https://example.org/,ada," + R
								+ "\nother,https://o.example/,bob,\"" + R + "\""),
				// abbreviated password keys
				arguments("env", "DB_PASS=hunter2", "DB_PASS=" + R),
				arguments("env", "MYSQL_PWD=hunter2 mysql -u root", "MYSQL_PWD=" + R + " mysql -u root"),
				arguments("env", "smtpPass: x1", "smtpPass: " + R),
				// bare GitHub tokens
				arguments("github token", "found ghp_" + GH + " in .env", "found ghp_" + R + " in .env"),
				arguments("github token", "gho_" + GH + " gho_" + GH, "gho_" + R + " gho_" + R),
				arguments("github token", "{\"value\": \"ghs_" + GH + "\"}", "{\"value\": \"ghs_" + R + "\"}"),
				arguments("github token", "(ghu_" + GH + ", ghr_" + GH + ")", "(ghu_" + R + ", ghr_" + R + ")"),
				arguments("github token", "GH=github_pat_" + GH_FINE_GRAINED, "GH=github_pat_" + R),
				// bare JWTs
				arguments("jwt", "session " + JWT + " expired", "session " + R + " expired"),
				arguments("jwt", "{\"id_token\":\"" + JWT + "\",\"note\":\"" + JWT + "\"}",
						"{\"id_token\":\"" + R + "\",\"note\":\"" + R + "\"}"));
	}

	/**
	 * Texts that look like a credential format but hold no secret: the format, the text
	 * (kept as it is).
	 */
	static Stream<Arguments> credentialLookalikes() {
		return Stream.of(arguments("php array", "'user' => 'ada', fn($x) => $x"),
				arguments("url", "https://example.org:8443/users/@ada/posts"),
				arguments("url", "https://medium.com/@ada/a-post"),
				arguments("url", "see https://example.org/a/b for details"),
				arguments("netrc", "the machine is down, login failed"),
				arguments("netrc", "default password is admin"),
				arguments("netrc", "Forgot your password? Reset it from the login page."),
				arguments("xml", "<passwordHint>first pet</passwordHint> <username>ada</username>"),
				arguments("xml", "Set the <password> element in settings.xml to your key"),
				arguments("docker auth", "{\"auth\": \"required\", \"mode\": \"none\"}"),
				arguments("docker auth", "{\"auth\": true}"), arguments("docker auth", "auth: oauth2"),
				arguments("docker auth", "{\"auth\": \"none\"}"),
				arguments("wp-config", "define('WP_DEBUG', true); define('DB_NAME', 'wordpress');"),
				arguments("pgp public key",
						"-----BEGIN PGP PUBLIC KEY BLOCK-----\n\nmQENBF\n-----END PGP PUBLIC KEY BLOCK-----"),
				arguments("putty public lines", "Public-Lines: 2\nAAAAB3Nza\nC1yc2E"),
				arguments("pgpass", "started at 12:30:45 and ended at 12:31:02"),
				arguments("pgpass", "frame 01:02:03:04:05"),
				arguments("pgpass", "fe80:0:0:0:0:0:0:1 and aa:bb:cc:dd:ee:ff"),
				arguments("pgpass", "ERROR:root:app:main:failed"),
				arguments("pgpass", "failed at 2025-04-12T08:01:02.345+02:00: cannot open /var/data/x.csv"),
				arguments("pgpass", "at 2025-04-12T08:01:02:345:x and host:5432:db:user: (no password)"),
				arguments("csv", "name,age,city\nada,36,Lisbon"), arguments("csv", "Hello, world, again\nyes, no"),
				arguments("env", "pass=12 fail=0 bypass=true compass=north"), arguments("env", "PWD=/home/ada"),
				arguments("env", "password_hint=first pet"), arguments("env", "PASS_MAX_DAYS=90"),
				arguments("github token", "ghp_abc123 and ghp_" + GH.substring(1) + " and github_pat_short"),
				arguments("jwt", "upgraded 1.2.3 to v10.24.1 in com.example.app"),
				arguments("jwt", "eyJhbG.ab.c is too short to be a token"),
				arguments("prose", "Enter the password sent to your phone"));
	}

	static Stream<String> kept() {
		return Stream.of("java.nio.file.NoSuchFileException: my-secret-notes.txt: no such file",
				"Path 'notes/a.txt' is outside the workspace: size=12",
				"Tool 'read_file' failed: NoSuchFileException: secret-plans.md", "secretariat: closed on Mondays",
				"token_count=1500 exceeds max_token_count=1000", "tokenizer: cl100k_base",
				"password-reset.html: not found",
				"GET https://api.example.org/v1?city=Lisbon&units=metric returned 503",
				"see https://registry.npmjs.org/@scope/pkg for details",
				"mailto:ada@example.org is not a URL with a password", "Token expired at 12:00", "Basic auth failed",
				"Bearer token missing", "Digest mismatch for file.txt", "time=12:30:00 duration=5ms",
				"ratio 3:2 and a==b", "api key rotation scheduled", "The secret to good tests: small steps",
				"file tokens.txt: 3 lines", "{\"city\": \"Lisbon\", \"units\": \"metric\"}",
				"Weather in Lisbon: 21°C, sunny", "user=ada role=admin", "https://example.org/path/to/secret-page.html",
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

	@ParameterizedTest(name = "{0}: {1}")
	@MethodSource("credentialFormats")
	void hidesTheSecretOfEachCredentialFormat(String format, String text, String expected) {
		assertThat(this.redactor.redactText(text)).isEqualTo(expected);
	}

	@ParameterizedTest(name = "{0}: {1}")
	@MethodSource("credentialLookalikes")
	void leavesCredentialLookalikesUnchanged(String format, String text) {
		assertThat(this.redactor.redactText(text)).isEqualTo(text);
	}

}
