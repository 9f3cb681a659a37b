package dev.agentmiddleware.results;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import ch.qos.logback.classic.Level;
import com.google.i18n.phonenumbers.PhoneNumberUtil.Leniency;
import dev.agentmiddleware.chain.InvalidPolicyException;
import dev.agentmiddleware.chain.ToolPipeline;
import dev.agentmiddleware.logging.LoggingMiddleware;
import dev.agentmiddleware.observation.MicrometerMiddlewareMetrics;
import dev.agentmiddleware.results.ResultPolicy.OnExceed;
import dev.agentmiddleware.testsupport.CapturedLog;
import dev.agentmiddleware.tool.ExecutableTool;
import dev.agentmiddleware.tool.ToolDescriptor;
import dev.agentmiddleware.tool.ToolInvocation;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * The personal data of results masked by the {@link ResultGuardMiddleware} with the
 * built-in detectors, in text and in structured results, near-misses left alone, counted
 * per tool and kind, and masked in the logs.
 */
class PersonalDataMaskingTests {

	private static final List<String> ALL = List.of("email", "phone", "card", "iban");

	@RegisterExtension
	final CapturedLog capturedLog = CapturedLog.of(LoggingMiddleware.DEFAULT_LOGGER_NAME, Level.DEBUG);

	private final SimpleMeterRegistry meterRegistry = new SimpleMeterRegistry();

	static Stream<Arguments> personalData() {
		return Stream.of(
				// kind, text, masked
				Arguments.of("email", "write to alice.smith@example.com today", "write to [EMAIL] today"),
				Arguments.of("email", "<bob+tag@mail.example.co.uk>, carol@example.org.", "<[EMAIL]>, [EMAIL]."),
				Arguments.of("phone", "call +49 30 1234567 now", "call [PHONE] now"),
				Arguments.of("phone", "call 030 1234567 (office)", "call [PHONE] (office)"),
				Arguments.of("phone", "US office: +1 415 555 0123", "US office: [PHONE]"),
				Arguments.of("card", "paid with 4111 1111 1111 1111, thanks", "paid with [CARD ending 1111], thanks"),
				Arguments.of("card", "card 5500-0000-0000-0004", "card [CARD ending 0004]"),
				Arguments.of("card", "amex 378282246310005", "amex [CARD ending 0005]"),
				Arguments.of("iban", "pay to DE89 3704 0044 0532 0130 00 by Friday", "pay to [IBAN] by Friday"),
				Arguments.of("iban", "IBAN GB82WEST12345698765432.", "IBAN [IBAN]."));
	}

	static Stream<Arguments> nearMisses() {
		return Stream.of(
				// why it is no personal data, text
				Arguments.of("16 digits failing the Luhn check", "order 4111 1111 1111 1112"),
				Arguments.of("16 digits passing Luhn, but no card issuer starts with 1", "ref 1234567812345670"),
				Arguments.of("a card number inside a longer number", "trace 94111111111111111"),
				Arguments.of("an IBAN with a wrong check digit", "pay to DE88 3704 0044 0532 0130 00"),
				Arguments.of("a code that merely starts like an IBAN", "part DE12 rev 3"),
				Arguments.of("an order number that is no phone number in DE", "order 4711-0815 shipped"),
				Arguments.of("a version string", "version 1.2.3456789, build 10.0.19045.3693"),
				Arguments.of("an ISO date", "released 2024-11-05 at 10:30"),
				Arguments.of("no top-level domain", "ssh user@localhost"), Arguments.of("a handle", "thanks @alice"));
	}

	@ParameterizedTest(name = "{0}: {1}")
	@MethodSource("personalData")
	void eachKindIsMaskedInAText(String kind, String text, String masked) throws Exception {
		assertThat(call(stringTool("read_notes", text), ALL)).isEqualTo(masked);
		assertThat(masked(kind)).isPositive();
	}

	@ParameterizedTest(name = "{0}: {1}")
	@MethodSource("personalData")
	void eachKindIsMaskedInTheStringsOfAStructuredResult(String kind, String text, String masked) throws Exception {
		Note note = new Note(42, text, List.of("first", text), Map.of("body", text));
		Object result = call(noteTool(note), ALL);
		assertThat(result).isEqualTo(new Note(42, masked, List.of("first", masked), Map.of("body", masked)));
	}

	@ParameterizedTest(name = "{0}")
	@MethodSource("nearMisses")
	void nearMissesAreLeftAlone(String why, String text) throws Exception {
		assertThat(call(stringTool("read_notes", text), ALL)).isEqualTo(text);
		Note note = new Note(1, text, List.of(text), Map.of("body", text));
		assertThat(call(noteTool(note), ALL)).isSameAs(note);
		assertThat(this.meterRegistry.find("agent.tool.results.personal.data").counters()).isEmpty();
	}

	@Test
	void onlyTheKindsThePolicyNamesAreMasked() throws Exception {
		String text = "alice@example.com, +49 30 1234567, 4111 1111 1111 1111, DE89 3704 0044 0532 0130 00";
		assertThat(call(stringTool("read_notes", text), List.of("email", "iban")))
			.isEqualTo("[EMAIL], +49 30 1234567, 4111 1111 1111 1111, [IBAN]");
	}

	@Test
	void whereFindsOverlapTheLongestIsMaskedSoAnIbanIsNotCutIntoPhoneNumbers() throws Exception {
		String text = "IBAN DE89 3704 0044 0532 0130 00, card 4111 1111 1111 1111";
		assertThat(new PhoneNumberDetector("DE", Leniency.POSSIBLE).find(text)).isNotEmpty();
		ResultGuardMiddleware middleware = ResultGuardMiddleware.builder()
			.policies((tool) -> new ResultPolicy(0, OnExceed.TRUNCATE, true, ALL))
			.personalDataDetectors(List.of(new EmailDetector(), new PhoneNumberDetector("DE", Leniency.POSSIBLE),
					new PaymentCardDetector(), new IbanDetector()))
			.build();
		ExecutableTool tool = stringTool("read_notes", text);
		assertThat(ToolPipeline.chain(tool, middleware).call(ToolInvocation.builder(tool.descriptor()).build()))
			.isEqualTo("IBAN [IBAN], card [CARD ending 1111]");
	}

	@Test
	void withoutADefaultRegionOnlyNumbersWithACountryCodeAreFound() {
		PhoneNumberDetector international = new PhoneNumberDetector();
		assertThat(international.find("+49 30 1234567")).hasSize(1);
		assertThat(international.find("030 1234567")).isEmpty();
		assertThat(new PhoneNumberDetector("us", Leniency.VALID).find("(415) 555-0123")).hasSize(1);
	}

	@Test
	void aDottedDateThatIsAValidGermanNumberIsLeftAloneOnlyWithStrictGrouping() {
		assertThat(new PhoneNumberDetector("DE", Leniency.VALID).find("on 05.11.2024")).hasSize(1);
		assertThat(new PhoneNumberDetector("DE", Leniency.STRICT_GROUPING).find("on 05.11.2024")).isEmpty();
		assertThat(new PhoneNumberDetector("DE", Leniency.STRICT_GROUPING).find("call 030 1234567")).hasSize(1);
	}

	@Test
	void anUnknownRegionIsRefused() {
		assertThatIllegalArgumentException().isThrownBy(() -> new PhoneNumberDetector("XX", Leniency.VALID))
			.withMessageContaining("'XX' is no region libphonenumber knows");
	}

	@Test
	void toolsWhosePolicyNamesNoKindAreNotMasked() throws Exception {
		ResultGuardMiddleware middleware = middleware(
				(tool) -> tool.name().equals("lookup_customer") ? ALL : List.of());
		ExecutableTool customers = stringTool("lookup_customer", "alice@example.com");
		ExecutableTool files = stringTool("read_file", "alice@example.com");
		assertThat(
				ToolPipeline.chain(customers, middleware).call(ToolInvocation.builder(customers.descriptor()).build()))
			.isEqualTo("[EMAIL]");
		assertThat(ToolPipeline.chain(files, middleware).call(ToolInvocation.builder(files.descriptor()).build()))
			.isEqualTo("alice@example.com");
		assertThat(middleware.personalDataMasking(customers.descriptor())).isNotNull();
		assertThat(middleware.personalDataMasking(files.descriptor())).isNull();
	}

	@Test
	void eachMaskedValueIsCountedPerToolAndKind() throws Exception {
		call(stringTool("lookup_customer", "alice@example.com, bob@example.com, +49 30 1234567"), ALL);
		assertThat(this.meterRegistry.get("agent.tool.results.personal.data")
			.tag(MicrometerMiddlewareMetrics.TOOL_NAME_TAG, "lookup_customer")
			.tag(MicrometerMiddlewareMetrics.KIND_TAG, "email")
			.counter()
			.count()).isEqualTo(2.0);
		assertThat(this.meterRegistry.get("agent.tool.results.personal.data")
			.tag(MicrometerMiddlewareMetrics.TOOL_NAME_TAG, "lookup_customer")
			.tag(MicrometerMiddlewareMetrics.KIND_TAG, "phone")
			.counter()
			.count()).isEqualTo(1.0);
		assertThat(this.meterRegistry.find("agent.tool.results.personal.data").tag("kind", "card").counter()).isNull();
	}

	@Test
	void theLogsMaskTheSamePersonalDataInArgumentsResultsAndErrors() throws Exception {
		ResultGuardMiddleware results = middleware((tool) -> ALL);
		LoggingMiddleware logging = LoggingMiddleware.builder().masking(results::personalDataMasking).build();
		ExecutableTool tool = new ExecutableTool(
				ToolDescriptor.builder("lookup_customer").resultType(String.class).build(),
				(invocation) -> "found " + invocation.arguments().get("email") + ", IBAN DE89370400440532013000");
		ToolPipeline pipeline = ToolPipeline.chain(tool, logging, results);
		assertThat(pipeline.call(ToolInvocation.builder(tool.descriptor())
			.argument("email", "alice@example.com")
			.argument("card", "4111 1111 1111 1111")
			.build())).isEqualTo("found [EMAIL], IBAN [IBAN]");
		ExecutableTool failing = new ExecutableTool(ToolDescriptor.builder("lookup_customer").build(), (invocation) -> {
			throw new IllegalStateException("no customer bob@example.com");
		});
		assertThatExceptionOfType(IllegalStateException.class)
			.isThrownBy(() -> ToolPipeline.chain(failing, logging, results)
				.call(ToolInvocation.builder(failing.descriptor()).build()));
		List<String> lines = this.capturedLog.events().stream().map((event) -> event.getFormattedMessage()).toList();
		assertThat(lines).hasSize(3);
		assertThat(lines.get(0)).contains("args={email=\"[EMAIL]\", card=\"[CARD ending 1111]\"}");
		assertThat(lines.get(1)).contains("result=\"found [EMAIL], IBAN [IBAN]\"");
		assertThat(lines.get(2)).contains("error=\"no customer [EMAIL]\"");
		assertThat(String.join("\n", lines)).doesNotContain("alice@", "bob@", "4111 1111", "DE89");
	}

	@Test
	void aPolicyNamingAKindNoDetectorFindsFailsWhenThePipelineIsBuilt() {
		ResultGuardMiddleware middleware = middleware((tool) -> List.of("email", "passport"));
		ExecutableTool tool = stringTool("read_notes", "text");
		assertThatExceptionOfType(InvalidPolicyException.class).isThrownBy(() -> ToolPipeline.chain(tool, middleware))
			.withMessage("personalData names 'passport', which no detector finds; the detectors find"
					+ " [card, email, iban, phone]");
	}

	@Test
	void twoDetectorsOfOneKindAreRefused() {
		assertThatIllegalArgumentException()
			.isThrownBy(() -> ResultGuardMiddleware.builder()
				.personalDataDetectors(List.of(new EmailDetector(), new EmailDetector())))
			.withMessageContaining("Two personal data detectors find 'email'");
	}

	@Test
	void aDetectorOfYourOwnIsUsedForItsKind() throws Exception {
		PersonalDataDetector employeeIds = new PersonalDataDetector() {

			@Override
			public String kind() {
				return "employee-id";
			}

			@Override
			public List<Match> find(String text) {
				return java.util.regex.Pattern.compile("\\bEMP-\\d{6}\\b")
					.matcher(text)
					.results()
					.map((found) -> new Match(found.start(), found.end()))
					.toList();
			}

		};
		ResultGuardMiddleware middleware = ResultGuardMiddleware.builder()
			.policies((tool) -> new ResultPolicy(0, OnExceed.TRUNCATE, true, List.of("employee-id", "email")))
			.personalDataDetectors(List.of(employeeIds, new EmailDetector()))
			.build();
		ExecutableTool tool = stringTool("read_notes", "EMP-123456 is alice@example.com; EMP-12345 is not an id");
		assertThat(ToolPipeline.chain(tool, middleware).call(ToolInvocation.builder(tool.descriptor()).build()))
			.isEqualTo("[EMPLOYEE-ID] is [EMAIL]; EMP-12345 is not an id");
	}

	private Object call(ExecutableTool tool, List<String> kinds) throws Exception {
		return ToolPipeline.chain(tool, middleware((descriptor) -> kinds))
			.call(ToolInvocation.builder(tool.descriptor()).build());
	}

	private ResultGuardMiddleware middleware(java.util.function.Function<ToolDescriptor, List<String>> kinds) {
		return ResultGuardMiddleware.builder()
			.policies((tool) -> new ResultPolicy(ResultPolicy.UNLIMITED, OnExceed.TRUNCATE, true, kinds.apply(tool)))
			.personalDataDetectors(List.of(new EmailDetector(), new PhoneNumberDetector("DE", Leniency.VALID),
					new PaymentCardDetector(), new IbanDetector()))
			.metrics(new MicrometerMiddlewareMetrics(this.meterRegistry))
			.build();
	}

	private double masked(String kind) {
		return this.meterRegistry.get("agent.tool.results.personal.data").tag("kind", kind).counter().count();
	}

	private static ExecutableTool stringTool(String name, String text) {
		return new ExecutableTool(ToolDescriptor.builder(name).resultType(String.class).build(), (invocation) -> text);
	}

	private static ExecutableTool noteTool(Note note) {
		return new ExecutableTool(ToolDescriptor.builder("read_note").resultType(Note.class).build(),
				(invocation) -> note);
	}

	record Note(long id, String text, List<String> lines, Map<String, String> fields) {

		Note {
			fields = new LinkedHashMap<>(fields);
		}

	}

}
