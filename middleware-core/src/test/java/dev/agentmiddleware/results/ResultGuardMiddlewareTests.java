package dev.agentmiddleware.results;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

import dev.agentmiddleware.callrecord.ToolCallObserver;
import dev.agentmiddleware.callrecord.ToolCallObserver.ToolCallRecord;
import dev.agentmiddleware.callrecord.ToolCallObservers;
import dev.agentmiddleware.chain.OrderedMiddleware.BuiltInOrder;
import dev.agentmiddleware.chain.ToolPipeline;
import dev.agentmiddleware.metrics.MiddlewareMetrics;
import dev.agentmiddleware.metrics.MiddlewareMetrics.MiddlewareEvent;
import dev.agentmiddleware.results.ResultGuardMiddleware.ToolResultRefusedException;
import dev.agentmiddleware.results.ResultPolicy.OnExceed;
import dev.agentmiddleware.results.ToolResultGuard.ResultContent;
import dev.agentmiddleware.tool.CallOutcome;
import dev.agentmiddleware.tool.ExecutableTool;
import dev.agentmiddleware.tool.ToolDescriptor;
import dev.agentmiddleware.tool.ToolInvocation;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

class ResultGuardMiddlewareTests {

	private static final JsonMapper JSON = JsonMapper.shared();

	private final Map<MiddlewareEvent, Integer> counted = new EnumMap<>(MiddlewareEvent.class);

	private final MiddlewareMetrics metrics = (event, tool) -> this.counted.merge(event, 1, Integer::sum);

	@Test
	void aLongerTextIsCutToTheLimitWithAMarkerSayingHowMuchWasLeftOut() throws Exception {
		String text = "x".repeat(5_000);
		Object result = call(stringTool(text), policy(1_000, OnExceed.TRUNCATE, true));
		assertThat((String) result).hasSizeLessThanOrEqualTo(1_000)
			.startsWith("xxxx")
			.endsWith("… [cut: " + String.format("%,d", 5_000 - ((String) result).indexOf('…'))
					+ " more characters; the tool's result is longer than its limit of 1,000 characters]");
		assertThat(this.counted).containsEntry(MiddlewareEvent.RESULT_TRUNCATED, 1);
	}

	@Test
	void aResultWithinTheLimitIsHandedOnAsItIs() throws Exception {
		Forecast forecast = new Forecast("Lisbon", "sunny");
		ExecutableTool tool = new ExecutableTool(ToolDescriptor.builder("weather").resultType(Forecast.class).build(),
				(invocation) -> forecast);
		assertThat(call(tool, policy(1_000, OnExceed.TRUNCATE, true))).isSameAs(forecast);
		assertThat(this.counted).isEmpty();
	}

	@Test
	void aLongStructuredResultIsCutInItsLongestStringsAndStaysValidJsonOfItsType() throws Exception {
		Forecast forecast = new Forecast("Lisbon", "sunny ".repeat(2_000));
		ExecutableTool tool = new ExecutableTool(ToolDescriptor.builder("weather").resultType(Forecast.class).build(),
				(invocation) -> forecast);
		Object result = call(tool, policy(500, OnExceed.TRUNCATE, true));
		assertThat(result).isInstanceOf(Forecast.class);
		Forecast cut = (Forecast) result;
		assertThat(cut.city()).isEqualTo("Lisbon");
		assertThat(cut.summary()).startsWith("sunny sunny").contains("… [cut: ");
		String json = JSON.writeValueAsString(cut);
		assertThat(json.length()).isLessThanOrEqualTo(500);
		assertThat(JSON.readTree(json).get("summary").stringValue()).isEqualTo(cut.summary());
	}

	@Test
	void stringsWithEscapesAreCutByTheLengthOfTheirJson() throws Exception {
		Forecast forecast = new Forecast("Lisbon", "line \"one\"\n".repeat(1_000));
		ExecutableTool tool = new ExecutableTool(ToolDescriptor.builder("weather").resultType(Forecast.class).build(),
				(invocation) -> forecast);
		Forecast cut = (Forecast) call(tool, policy(500, OnExceed.TRUNCATE, true));
		assertThat(JSON.writeValueAsString(cut).length()).isBetween(400, 500);
		assertThat(cut.summary()).startsWith("line \"one\"\nline").contains("… [cut: ");
	}

	@Test
	void aTextThatIsAJsonDocumentIsCutInsideItsStringsSoItStaysValidJson() throws Exception {
		String document = "{\"items\":[\"" + "a".repeat(3_000) + "\",\"short\"],\"count\":2}";
		String result = (String) call(stringTool(document), policy(1_000, OnExceed.TRUNCATE, true));
		assertThat(result.length()).isLessThanOrEqualTo(1_000);
		JsonNode tree = JSON.readTree(result);
		assertThat(tree.get("count").intValue()).isEqualTo(2);
		assertThat(tree.get("items").get(1).stringValue()).isEqualTo("short");
		assertThat(tree.get("items").get(0).stringValue()).contains("… [cut: ");
	}

	@Test
	void aResultWhoseStructureAloneIsOverTheLimitIsRefused() {
		List<Integer> numbers = new ArrayList<>();
		for (int i = 0; i < 1_000; i++) {
			numbers.add(i);
		}
		ExecutableTool tool = new ExecutableTool(ToolDescriptor.builder("numbers").resultType(List.class).build(),
				(invocation) -> Map.of("numbers", numbers));
		assertThatExceptionOfType(ToolResultRefusedException.class)
			.isThrownBy(() -> call(tool, policy(200, OnExceed.TRUNCATE, true)))
			.withMessageContaining("tool 'numbers'")
			.withMessageContaining("its structure is longer");
	}

	@Test
	void withRefuseALongerResultFailsTheCallAndObserversSeeItDeniedByResults() throws Exception {
		List<ToolCallRecord> records = new ArrayList<>();
		ToolCallObserver observer = new ToolCallObserver() {
			@Override
			public void onToolCall(ToolCallRecord record) {
				records.add(record);
			}

			@Override
			public boolean synchronous() {
				return true;
			}
		};
		ExecutableTool tool = stringTool("y".repeat(2_000));
		try (ToolCallObservers observers = ToolCallObservers.builder().observer(observer).build()) {
			ToolPipeline pipeline = ToolPipeline.builder(tool.descriptor(), tool.handler())
				.middleware(middleware(policy(1_000, OnExceed.REFUSE, true)))
				.observers(observers)
				.build();
			assertThatExceptionOfType(ToolResultRefusedException.class)
				.isThrownBy(() -> pipeline.call(ToolInvocation.builder(tool.descriptor()).build()))
				.withMessage("The result of tool 'read_file' was refused by results: its result has 2,000 characters,"
						+ " more than its limit of 1,000");
		}
		assertThat(records).singleElement().satisfies((record) -> {
			assertThat(record.outcome()).isEqualTo(CallOutcome.DENIED);
			assertThat(record.decidedBy()).isEqualTo("results");
		});
		assertThat(this.counted).containsEntry(MiddlewareEvent.RESULT_REFUSED, 1);
	}

	@Test
	void credentialsInUrlsAreRedacted() throws Exception {
		assertThat(call(stringTool("db: postgres://app:s3cr3t@db.internal:5432/orders"), unlimited()))
			.isEqualTo("db: postgres://[REDACTED]@db.internal:5432/orders");
		assertThat(this.counted).containsEntry(MiddlewareEvent.RESULT_REDACTED, 1);
	}

	@Test
	void authorizationValuesAreRedacted() throws Exception {
		assertThat(call(stringTool("Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.e30.abc"), unlimited()))
			.isEqualTo("Authorization: Bearer [REDACTED]");
	}

	@Test
	void privateKeysAreRedacted() throws Exception {
		String pem = "key:\n-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA7\n-----END RSA PRIVATE KEY-----\n";
		assertThat((String) call(stringTool(pem), unlimited())).doesNotContain("MIIEowIBAAKCAQEA7")
			.contains("-----BEGIN RSA PRIVATE KEY-----[REDACTED]-----END RSA PRIVATE KEY-----");
	}

	@Test
	void passwordsInAConfigFileAreRedacted() throws Exception {
		assertThat(
				call(stringTool("spring.datasource.url=jdbc:postgresql://db/app\nspring.datasource.password=hunter2\n"),
						unlimited()))
			.isEqualTo("spring.datasource.url=jdbc:postgresql://db/app\nspring.datasource.password=[REDACTED]\n");
	}

	@Test
	void secretNamedFieldsOfAStructuredResultAreRedactedWhateverTheirValue() throws Exception {
		ExecutableTool tool = new ExecutableTool(ToolDescriptor.builder("account").build(),
				(invocation) -> Map.of("user", "ann", "apiKey", "k-123", "credentials", Map.of("pin", 1234), "note",
						"see https://ann:pw@example.com/"));
		@SuppressWarnings("unchecked")
		Map<String, Object> result = (Map<String, Object>) call(tool, unlimited());
		assertThat(result).containsEntry("user", "ann")
			.containsEntry("apiKey", "[REDACTED]")
			.containsEntry("credentials", "[REDACTED]")
			.containsEntry("note", "see https://[REDACTED]@example.com/");
	}

	@Test
	void aRedactedFieldThatNoLongerFitsTheResultTypeIsRefusedNotHandedOn() {
		ExecutableTool tool = new ExecutableTool(ToolDescriptor.builder("pin").resultType(Pin.class).build(),
				(invocation) -> new Pin("ann", 1234));
		assertThatExceptionOfType(ToolResultRefusedException.class).isThrownBy(() -> call(tool, unlimited()))
			.withMessageContaining("no longer fits its type Pin");
	}

	@Test
	void withRedactionOffSecretsPass() throws Exception {
		assertThat(call(stringTool("password=hunter2"), policy(ResultPolicy.UNLIMITED, OnExceed.TRUNCATE, false)))
			.isEqualTo("password=hunter2");
	}

	@Test
	void guardsRunInOrderAfterRedactionAndBeforeTheLimit() throws Exception {
		List<String> seen = new ArrayList<>();
		ToolResultGuard first = (invocation, result) -> {
			seen.add("first:" + result.text());
			return result.withText(result.text() + " first" + "!".repeat(100));
		};
		ToolResultGuard second = (invocation, result) -> {
			seen.add("second:" + result.text().substring(0, 30));
			return result;
		};
		ResultGuardMiddleware middleware = ResultGuardMiddleware.builder()
			.policies((tool) -> new ResultPolicy(120, OnExceed.TRUNCATE, true))
			.guards(List.of(first, second))
			.build();
		ExecutableTool tool = stringTool("token=abc123");
		Object result = ToolPipeline.chain(tool, middleware).call(ToolInvocation.builder(tool.descriptor()).build());
		assertThat(seen).containsExactly("first:token=[REDACTED]", "second:token=[REDACTED] first!!!!!!!!");
		assertThat((String) result).hasSizeLessThanOrEqualTo(120).contains("… [cut: ");
	}

	@Test
	void aGuardRefusesAResultAndIsNamedAsTheDecider() {
		ToolResultGuard noCards = new ToolResultGuard() {
			@Override
			public ResultContent check(ToolInvocation invocation, ResultContent result) {
				if (result.text().matches(".*\\d{4} \\d{4} \\d{4} \\d{4}.*")) {
					throw new ToolResultRefusedException(invocation.toolName(), name(), "it holds a card number");
				}
				return result;
			}

			@Override
			public String name() {
				return "no-cards";
			}
		};
		ResultGuardMiddleware middleware = ResultGuardMiddleware.builder()
			.policies((tool) -> unlimited())
			.guards(List.of(noCards))
			.metrics(this.metrics)
			.build();
		ExecutableTool tool = stringTool("card 4111 1111 1111 1111");
		assertThatExceptionOfType(ToolResultRefusedException.class)
			.isThrownBy(
					() -> ToolPipeline.chain(tool, middleware).call(ToolInvocation.builder(tool.descriptor()).build()))
			.withMessage("The result of tool 'read_file' was refused by no-cards: it holds a card number")
			.satisfies((ex) -> assertThat(ex.decidedBy()).isEqualTo("no-cards"));
		assertThat(this.counted).containsEntry(MiddlewareEvent.RESULT_REFUSED, 1);
	}

	@Test
	void aGuardSeesAStructuredResultAsItsJsonTree() throws Exception {
		ToolResultGuard upper = (invocation, result) -> {
			ObjectNode copy = (ObjectNode) result.json().deepCopy();
			copy.put("city", copy.get("city").stringValue().toUpperCase());
			return result.withJson(copy);
		};
		ResultGuardMiddleware middleware = ResultGuardMiddleware.builder()
			.policies((tool) -> unlimited())
			.guards(List.of(upper))
			.build();
		ExecutableTool tool = new ExecutableTool(ToolDescriptor.builder("weather").resultType(Forecast.class).build(),
				(invocation) -> new Forecast("Lisbon", "sunny"));
		assertThat(ToolPipeline.chain(tool, middleware).call(ToolInvocation.builder(tool.descriptor()).build()))
			.isEqualTo(new Forecast("LISBON", "sunny"));
	}

	@Test
	void toolsWithoutAPolicyAreLeftAlone() {
		ResultGuardMiddleware middleware = ResultGuardMiddleware.builder().build();
		ExecutableTool tool = stringTool("password=hunter2");
		assertThat(ToolPipeline.chain(tool, middleware).isBare()).isTrue();
		assertThat(middleware.order()).isEqualTo(BuiltInOrder.RESULTS);
	}

	private Object call(ExecutableTool tool, ResultPolicy policy) throws Exception {
		return ToolPipeline.chain(tool, middleware(policy)).call(ToolInvocation.builder(tool.descriptor()).build());
	}

	private ResultGuardMiddleware middleware(ResultPolicy policy) {
		return ResultGuardMiddleware.builder().policies((tool) -> policy).metrics(this.metrics).build();
	}

	private static ResultPolicy policy(int maxChars, OnExceed onExceed, boolean redact) {
		return new ResultPolicy(maxChars, onExceed, redact);
	}

	private static ResultPolicy unlimited() {
		return policy(ResultPolicy.UNLIMITED, OnExceed.TRUNCATE, true);
	}

	private static ExecutableTool stringTool(String text) {
		return new ExecutableTool(ToolDescriptor.builder("read_file").resultType(String.class).build(),
				(invocation) -> text);
	}

	record Forecast(String city, String summary) {
	}

	record Pin(String user, long tokenValue) {
	}

}
