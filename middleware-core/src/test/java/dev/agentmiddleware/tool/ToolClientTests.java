package dev.agentmiddleware.tool;

import java.util.List;
import java.util.Map;

import ch.qos.logback.classic.Level;
import dev.agentmiddleware.testsupport.CapturedLog;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

class ToolClientTests {

	@RegisterExtension
	final CapturedLog capturedLog = CapturedLog.of(ToolClient.class.getName(), Level.DEBUG);

	@Test
	void applicationLogClientWritesEachMessageToTheApplicationLogAtItsLevel() {
		ToolClient client = ToolClient.applicationLog("import_rows");
		client.log(ToolClient.Level.DEBUG, "reading the file");
		client.log(ToolClient.Level.NOTICE, "100 rows read");
		client.log(ToolClient.Level.WARNING, "row 7 is empty");
		client.log(ToolClient.Level.CRITICAL, "the disk is full");
		assertThat(this.capturedLog.events())
			.extracting((event) -> event.getLevel() + " " + event.getFormattedMessage())
			.containsExactly("DEBUG import_rows: reading the file", "INFO import_rows: 100 rows read",
					"WARN import_rows: row 7 is empty", "ERROR import_rows: the disk is full");
	}

	@Test
	void applicationLogClientCannotElicitOrSampleAndSaysWhy() {
		ToolClient client = ToolClient.applicationLog("book_table");
		assertThat(client.canElicit()).isFalse();
		assertThat(client.canSample()).isFalse();
		assertThatExceptionOfType(ToolClientUnavailableException.class)
			.isThrownBy(() -> client.elicit(ElicitationRequest.builder("When?").build()))
			.withMessage("Tool 'book_table' cannot ask its client for elicitation: the call has no MCP client to ask "
					+ "its user (a Java or ChatClient call)")
			.satisfies((ex) -> assertThat(ex.request()).isEqualTo("elicitation"));
		assertThatExceptionOfType(ToolClientUnavailableException.class)
			.isThrownBy(() -> client.sample(SamplingRequest.of("Hello?", 10)))
			.withMessageStartingWith("Tool 'book_table' cannot ask its client for sampling: ")
			.satisfies((ex) -> assertThat(ex.request()).isEqualTo("sampling"));
	}

	@Test
	void elicitationBuilderWritesAFlatFormSchemaWithDefaultsAndEnums() {
		ElicitationRequest request = ElicitationRequest.builder("Your details?")
			.text("name", "Name", "John Doe")
			.integer("age", null, 30)
			.number("score", "Score", 95.5)
			.bool("verified", "Verified", true)
			.choice("status", "Status", List.of("active", "inactive"), "active")
			.property("tags", Map.of("type", "array", "items", Map.of("type", "string", "enum", List.of("a", "b"))))
			.required("name", "status")
			.build();
		assertThat(request.message()).isEqualTo("Your details?");
		assertThat(request.requestedSchema()).isEqualTo(Map.of("type", "object", "properties",
				Map.of("name", Map.of("type", "string", "title", "Name", "default", "John Doe"), "age",
						Map.of("type", "integer", "default", 30L), "score",
						Map.of("type", "number", "title", "Score", "default", 95.5), "verified",
						Map.of("type", "boolean", "title", "Verified", "default", true), "status",
						Map.of("type", "string", "title", "Status", "default", "active", "enum",
								List.of("active", "inactive")),
						"tags", Map.of("type", "array", "items", Map.of("type", "string", "enum", List.of("a", "b")))),
				"required", List.of("name", "status")));
		assertThat(((Map<?, ?>) request.requestedSchema().get("properties")).keySet())
			.hasToString("[name, age, score, verified, status, tags]");
	}

	@Test
	void elicitationBuilderRefusesADefaultOutsideItsChoicesAndAnUnknownRequiredProperty() {
		assertThatIllegalArgumentException()
			.isThrownBy(() -> ElicitationRequest.builder("?").choice("size", null, List.of("S", "M"), "XL"))
			.withMessage("Default 'XL' of property 'size' is not one of [S, M]");
		assertThatIllegalArgumentException().isThrownBy(() -> ElicitationRequest.builder("?").required("size"))
			.withMessage("Property 'size' is required but was not added");
	}

	@Test
	void answersNeverShowTheirContentInToString() {
		ElicitationResult answer = new ElicitationResult(ElicitationResult.Action.ACCEPT,
				Map.of("iban", "DE89370400440532013000"));
		assertThat(answer.isAccepted()).isTrue();
		assertThat(answer).hasToString("ElicitationResult[action=ACCEPT, content=[iban]]");
		assertThat(new SamplingResult("the secret plan", "m1", "endTurn"))
			.hasToString("SamplingResult[model=m1, stopReason=endTurn, length=15]");
		assertThat(SamplingRequest.of("the secret plan", 5)).hasToString("SamplingRequest[messages=1, maxTokens=5]");
	}

	@Test
	void samplingRequestNeedsAMessageAndPositiveMaxTokens() {
		assertThatIllegalArgumentException().isThrownBy(() -> SamplingRequest.builder().maxTokens(10).build())
			.withMessage("A sampling request needs at least one message");
		assertThatIllegalArgumentException().isThrownBy(() -> SamplingRequest.builder().user("Hi").build())
			.withMessage("maxTokens must be positive, was 0");
		SamplingRequest request = SamplingRequest.builder()
			.systemPrompt("Be brief")
			.user("Hi")
			.assistant("Hello")
			.user("Bye")
			.maxTokens(3)
			.temperature(0.2)
			.build();
		assertThat(request.messages()).extracting(SamplingRequest.Message::role)
			.containsExactly(SamplingRequest.Role.USER, SamplingRequest.Role.ASSISTANT, SamplingRequest.Role.USER);
		assertThat(request.systemPrompt()).isEqualTo("Be brief");
		assertThat(request.temperature()).isEqualTo(0.2);
	}

}
