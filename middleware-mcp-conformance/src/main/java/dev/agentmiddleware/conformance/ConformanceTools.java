package dev.agentmiddleware.conformance;

import java.util.Base64;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import dev.agentmiddleware.spring.AgentTool;
import dev.agentmiddleware.spring.AgentToolParam;
import dev.agentmiddleware.tool.ElicitationRequest;
import dev.agentmiddleware.tool.ElicitationResult;
import dev.agentmiddleware.tool.SamplingRequest;
import dev.agentmiddleware.tool.ToolClient;
import dev.agentmiddleware.tool.ToolContent;
import dev.agentmiddleware.tool.ToolContents;
import dev.agentmiddleware.tool.ToolDescriptor.SafetyLevel;
import dev.agentmiddleware.tool.ToolInputRequiredException;
import dev.agentmiddleware.tool.ToolProgress;

import org.springframework.stereotype.Component;

/**
 * The tools the conformance suite calls, by the names its scenarios use, as
 * {@code @AgentTool} methods written with the public API only: text, errors and progress;
 * rich results ({@code ToolContents}); a tool that talks to its client through a
 * {@code ToolClient} parameter (logging, sampling, elicitation with defaults and enums);
 * a declared input schema; a call that outlasts its first stream (resumption with
 * {@code Last-Event-ID}).
 */
@Component
public class ConformanceTools {

	// Longer than the 10 seconds the scenario server-sse-polling reads the call's first
	// stream
	private static final long RECONNECTION_DELAY_MILLIS = 12_000;

	private static final byte[] RED_PIXEL_PNG = Base64.getDecoder().decode(ConformanceResources.RED_PIXEL_PNG);

	/** A WAV header with no samples: the smallest valid audio clip. */
	private static final byte[] SILENT_WAV = Base64.getDecoder()
		.decode("UklGRiQAAABXQVZFZm10IBAAAAABAAEAQB8AAIA+AAACABAAZGF0YQAAAAA=");

	@AgentTool(name = "test_simple_text", description = "Returns simple text content for testing",
			safety = SafetyLevel.SAFE, readOnly = true, openWorld = false)
	public String simpleText() {
		return "This is a simple text response for testing.";
	}

	@AgentTool(name = "test_error_handling", description = "Tool that returns an error for testing error handling",
			safety = SafetyLevel.SAFE, readOnly = true, openWorld = false)
	public String errorHandling() {
		throw new IllegalStateException("This tool intentionally returns an error for testing");
	}

	/**
	 * Reports {@code 0/100}, {@code 50/100} and {@code 100/100}, about 50 ms apart, as
	 * the scenario {@code tools-call-with-progress} describes;
	 * {@code application.properties} sets the progress interval below that, so that each
	 * report reaches the client.
	 * @param progress the call's progress
	 * @return what the scenario expects
	 * @throws InterruptedException if the call is cancelled while it waits
	 */
	@AgentTool(name = "test_tool_with_progress", description = "Tool that reports progress notifications",
			safety = SafetyLevel.SAFE, readOnly = true, openWorld = false, tags = "interruptible")
	public String toolWithProgress(ToolProgress progress) throws InterruptedException {
		progress.report(0, 100, null);
		Thread.sleep(50);
		progress.report(50, 100, null);
		Thread.sleep(50);
		progress.report(100, 100, null);
		return "Tool execution completed with progress";
	}

	@AgentTool(name = "test_image_content", description = "Returns image content for testing",
			safety = SafetyLevel.SAFE, readOnly = true, openWorld = false)
	public ToolContents imageContent() {
		return ToolContents.of(ToolContent.image(RED_PIXEL_PNG, "image/png"));
	}

	@AgentTool(name = "test_audio_content", description = "Returns audio content for testing",
			safety = SafetyLevel.SAFE, readOnly = true, openWorld = false)
	public ToolContents audioContent() {
		return ToolContents.of(ToolContent.audio(SILENT_WAV, "audio/wav"));
	}

	@AgentTool(name = "test_embedded_resource", description = "Returns embedded resource content for testing",
			safety = SafetyLevel.SAFE, readOnly = true, openWorld = false)
	public ToolContents embeddedResource() {
		return ToolContents.of(ToolContent.resource("test://embedded-resource", "This is an embedded resource content.",
				"text/plain"));
	}

	@AgentTool(name = "test_multiple_content_types", description = "Returns multiple content types for testing",
			safety = SafetyLevel.SAFE, readOnly = true, openWorld = false)
	public ToolContents multipleContentTypes() {
		return ToolContents.of(ToolContent.text("Multiple content types test:"),
				ToolContent.image(RED_PIXEL_PNG, "image/png"), ToolContent.resource("test://mixed-content-resource",
						"{\"test\":\"data\",\"value\":123}", "application/json"));
	}

	/**
	 * The tool of the scenario {@code server-sse-polling}: it answers after 12 seconds,
	 * later than the suite reads the call's first stream (10 seconds), so that the client
	 * drops that stream while the call runs, reconnects with {@code GET} and the
	 * {@code Last-Event-ID} of the priming event, and gets the answer on the resumed
	 * stream. The server itself never closes a stream while its call runs.
	 * @return what the scenario expects
	 * @throws InterruptedException if the call is cancelled while it waits
	 */
	@AgentTool(name = "test_reconnection",
			description = "Answers after the client dropped and resumed its stream (SEP-1699)",
			safety = SafetyLevel.SAFE, readOnly = true, openWorld = false, tags = "interruptible")
	public String reconnection() throws InterruptedException {
		Thread.sleep(RECONNECTION_DELAY_MILLIS);
		return "Reconnection test completed";
	}

	/**
	 * Logs three messages at INFO to the client, about 50 ms apart, as the scenario
	 * {@code tools-call-with-logging} describes.
	 * @param client the call's client
	 * @return what the scenario expects
	 * @throws InterruptedException if the call is cancelled while it waits
	 */
	@AgentTool(name = "test_tool_with_logging", description = "Tool that sends log messages during execution",
			safety = SafetyLevel.SAFE, readOnly = true, openWorld = false, tags = "interruptible")
	public String toolWithLogging(ToolClient client) throws InterruptedException {
		client.log(ToolClient.Level.INFO, "Tool execution started");
		Thread.sleep(50);
		client.log(ToolClient.Level.INFO, "Tool processing data");
		Thread.sleep(50);
		client.log(ToolClient.Level.INFO, "Tool execution completed");
		return "Tool execution completed with logging";
	}

	/**
	 * Asks the client's model to answer a prompt, as the scenario
	 * {@code tools-call-sampling} describes; a client without the sampling capability
	 * makes the call fail.
	 * @param prompt the prompt
	 * @param client the call's client
	 * @return the model's answer
	 */
	/**
	 * Logs three messages, which reach a client of {@code 2026-07-28} only when its
	 * request's {@code _meta} sets a log level (the scenario {@code server-stateless}
	 * checks that none arrives without one).
	 * @param client the call's client
	 * @return a text
	 */
	@AgentTool(name = "test_logging_tool", description = "Tool that sends log messages during execution",
			safety = SafetyLevel.SAFE, readOnly = true, openWorld = false)
	public String loggingTool(ToolClient client) {
		client.log(ToolClient.Level.INFO, "Tool execution started");
		client.log(ToolClient.Level.INFO, "Tool processing data");
		client.log(ToolClient.Level.INFO, "Tool execution completed");
		return "Tool execution completed with logging";
	}

	/**
	 * Asks the client's model for a sampling, without catching the failure of a client
	 * that did not declare the capability: on {@code 2026-07-28} the request then fails
	 * with {@code -32021} (the scenario {@code server-stateless}).
	 * @param client the call's client
	 * @return the model's answer
	 */
	@AgentTool(name = "test_missing_capability",
			description = "Tool that needs the sampling capability, which the client must declare",
			safety = SafetyLevel.SAFE, readOnly = true, openWorld = false)
	public String missingCapability(ToolClient client) {
		return "LLM response: " + client.sample(SamplingRequest.of("Say hello", 20)).text();
	}

	/**
	 * Echoes a region that MCP clients of {@code 2026-07-28} mirror into the header
	 * {@code Mcp-Param-Region} (the scenario {@code http-custom-header-server-validation}
	 * checks that the server refuses a header that disagrees with the body).
	 * @param region the region
	 * @return the region
	 */
	@AgentTool(name = "test_custom_headers", description = "Tool whose region is mirrored into an HTTP header",
			safety = SafetyLevel.SAFE, readOnly = true, openWorld = false)
	public String customHeaders(@AgentToolParam(description = "The region, mirrored into Mcp-Param-Region",
			header = "Region") String region) {
		return "Region: " + region;
	}

	@AgentTool(name = "test_sampling", description = "Tool that requests LLM sampling from the client",
			safety = SafetyLevel.SAFE, readOnly = true, openWorld = false)
	public String sampling(@AgentToolParam(description = "The prompt to send to the LLM") String prompt,
			ToolClient client) {
		return "LLM response: " + client.sample(SamplingRequest.of(prompt, 100)).text();
	}

	/**
	 * Asks the client's user for a user name and an email address, as the scenario
	 * {@code tools-call-elicitation} describes; a client without the elicitation
	 * capability makes the call fail.
	 * @param message the message to show the user
	 * @param client the call's client
	 * @return the user's answer
	 */
	@AgentTool(name = "test_elicitation", description = "Tool that requests user input from the client",
			safety = SafetyLevel.SAFE, readOnly = true, openWorld = false)
	public String elicitation(@AgentToolParam(description = "The message to show the user") String message,
			ToolClient client) {
		ElicitationResult answer = client.elicit(ElicitationRequest.builder(message)
			.property("username", Map.of("type", "string", "description", "User's response"))
			.property("email", Map.of("type", "string", "description", "User's email address"))
			.required("username", "email")
			.build());
		return "User response: action=" + action(answer) + ", content=" + answer.content();
	}

	/**
	 * Asks the client's user for a form whose every field has a default (SEP-1034), as
	 * the scenario {@code elicitation-sep1034-defaults} describes.
	 * @param client the call's client
	 * @return the user's answer
	 */
	@AgentTool(name = "test_elicitation_sep1034_defaults",
			description = "Tool that requests elicitation with default values for every primitive type",
			safety = SafetyLevel.SAFE, readOnly = true, openWorld = false)
	public String elicitationDefaults(ToolClient client) {
		ElicitationResult answer = client.elicit(ElicitationRequest.builder("Please review your details")
			.text("name", "Name", "John Doe")
			.integer("age", "Age", 30)
			.number("score", "Score", 95.5)
			.choice("status", "Status", List.of("active", "inactive", "pending"), "active")
			.bool("verified", "Verified", true)
			.build());
		return "Elicitation completed: action=" + action(answer) + ", content=" + answer.content();
	}

	/**
	 * Asks the client's user for a form with the five kinds of enum of SEP-1330, as the
	 * scenario {@code elicitation-sep1330-enums} describes.
	 * @param client the call's client
	 * @return the user's answer
	 */
	@AgentTool(name = "test_elicitation_sep1330_enums",
			description = "Tool that requests elicitation with every kind of enum schema", safety = SafetyLevel.SAFE,
			readOnly = true, openWorld = false)
	public String elicitationEnums(ToolClient client) {
		List<String> options = List.of("option1", "option2", "option3");
		ElicitationResult answer = client.elicit(ElicitationRequest.builder("Please choose your options")
			.choice("untitledSingle", null, options, null)
			.property("titledSingle",
					Map.of("type", "string", "oneOf",
							List.of(Map.of("const", "value1", "title", "First Option"),
									Map.of("const", "value2", "title", "Second Option"),
									Map.of("const", "value3", "title", "Third Option"))))
			.property("legacyEnum",
					Map.of("type", "string", "enum", List.of("opt1", "opt2", "opt3"), "enumNames",
							List.of("Option One", "Option Two", "Option Three")))
			.property("untitledMulti", Map.of("type", "array", "items", Map.of("type", "string", "enum", options)))
			.property("titledMulti",
					Map.of("type", "array", "items",
							Map.of("anyOf",
									List.of(Map.of("const", "value1", "title", "First Choice"),
											Map.of("const", "value2", "title", "Second Choice"),
											Map.of("const", "value3", "title", "Third Choice")))))
			.build());
		return "Elicitation completed: action=" + action(answer) + ", content=" + answer.content();
	}

	private static String action(ElicitationResult answer) {
		return answer.action().name().toLowerCase(Locale.ROOT);
	}

	/**
	 * Asks the user's name (key {@code user_name}), as the scenarios
	 * {@code input-required-result-*} of MCP 2026-07-28 describe: on that revision the
	 * first call answers {@code input_required}, and the retry with the answer greets.
	 * @param client the call's client
	 * @return the greeting
	 */
	@AgentTool(name = "test_input_required_result_elicitation",
			description = "Tool that asks the user's name through input_required", safety = SafetyLevel.SAFE,
			readOnly = true, openWorld = false)
	public String inputRequiredElicitation(ToolClient client) {
		return "Hello, " + client.elicit(askName("user_name", "What is your name?")).content().get("name") + "!";
	}

	/**
	 * Asks the user for a name while its call streams: on 2026-07-28 the question is an
	 * {@code input_required} result on the call's stream, never a request of its own
	 * (scenario {@code server-stateless}).
	 * @param client the call's client
	 * @return the greeting
	 */
	@AgentTool(name = "test_streaming_elicitation",
			description = "Tool that asks the user on its response stream (an input_required result)",
			safety = SafetyLevel.SAFE, readOnly = true, openWorld = false)
	public String streamingElicitation(ToolClient client) {
		return "Hello, " + client.elicit(askName("user_name", "What is your name?")).content().get("name") + "!";
	}

	/**
	 * Asks the client's model a question (key {@code capital_question}).
	 * @param client the call's client
	 * @return the model's answer
	 */
	@AgentTool(name = "test_input_required_result_sampling",
			description = "Tool that asks the client's model through input_required", safety = SafetyLevel.SAFE,
			readOnly = true, openWorld = false)
	public String inputRequiredSampling(ToolClient client) {
		return "Sampling response: " + client
			.sample(SamplingRequest.builder()
				.user("What is the capital of France?")
				.maxTokens(100)
				.id("capital_question")
				.build())
			.text();
	}

	/**
	 * Asks the client for its roots.
	 * @param client the call's client
	 * @return the roots' URIs
	 */
	@AgentTool(name = "test_input_required_result_list_roots",
			description = "Tool that asks the client's roots through input_required", safety = SafetyLevel.SAFE,
			readOnly = true, openWorld = false)
	public String inputRequiredListRoots(ToolClient client) {
		return "Roots: " + client.roots().stream().map(ToolClient.Root::uri).toList();
	}

	/**
	 * Asks for a confirmation (key {@code confirm}); the retry's text says
	 * {@code state-ok}: the requestState it came with was opened and checked.
	 * @param client the call's client
	 * @return the confirmation
	 */
	@AgentTool(name = "test_input_required_result_request_state",
			description = "Tool that asks a confirmation through input_required, with a requestState",
			safety = SafetyLevel.SAFE, readOnly = true, openWorld = false)
	public String inputRequiredRequestState(ToolClient client) {
		return "state-ok: confirmed=" + client.elicit(confirm()).content().get("ok");
	}

	/**
	 * Asks for a confirmation (key {@code confirm}): the scenario then retries with a
	 * tampered requestState, which is refused.
	 * @param client the call's client
	 * @return the confirmation
	 */
	@AgentTool(name = "test_input_required_result_tampered_state",
			description = "Tool that asks a confirmation through input_required, with a sealed requestState",
			safety = SafetyLevel.SAFE, readOnly = true, openWorld = false)
	public String inputRequiredTamperedState(ToolClient client) {
		return "confirmed=" + client.elicit(confirm()).content().get("ok");
	}

	/**
	 * Asks three independent questions in one round (an elicitation, a sampling request
	 * and the roots): each request whose answer is missing is noted, and the call answers
	 * {@code input_required} with all three once it asked them.
	 * @param client the call's client
	 * @return the answers
	 */
	@AgentTool(name = "test_input_required_result_multiple_inputs",
			description = "Tool that asks several questions in one input_required round", safety = SafetyLevel.SAFE,
			readOnly = true, openWorld = false)
	public String inputRequiredMultipleInputs(ToolClient client) {
		ToolInputRequiredException missing = null;
		Object name = null;
		String greeting = null;
		List<ToolClient.Root> roots = null;
		try {
			name = client.elicit(askName("user_name", "What is your name?")).content().get("name");
		}
		catch (ToolInputRequiredException ex) {
			missing = ex;
		}
		try {
			greeting = client
				.sample(SamplingRequest.builder().user("Generate a greeting").maxTokens(50).id("greeting").build())
				.text();
		}
		catch (ToolInputRequiredException ex) {
			missing = ex;
		}
		try {
			roots = client.roots();
		}
		catch (ToolInputRequiredException ex) {
			missing = ex;
		}
		if (missing != null) {
			throw missing;
		}
		return "name=" + name + ", greeting=" + greeting + ", roots=" + roots.size();
	}

	/**
	 * Asks two questions one after the other (keys {@code step1} and {@code step2}):
	 * three rounds on MCP 2026-07-28.
	 * @param client the call's client
	 * @return the answers
	 */
	@AgentTool(name = "test_input_required_result_multi_round",
			description = "Tool that asks two questions in two input_required rounds", safety = SafetyLevel.SAFE,
			readOnly = true, openWorld = false)
	public String inputRequiredMultiRound(ToolClient client) {
		Object name = client.elicit(askName("step1", "Step 1: What is your name?")).content().get("name");
		Object color = client
			.elicit(ElicitationRequest.builder("Step 2: What is your favorite color?")
				.property("color", Map.of("type", "string"))
				.required("color")
				.id("step2")
				.build())
			.content()
			.get("color");
		return name + " likes " + color;
	}

	/**
	 * Asks only what the client declared it can answer: the user's name when it elicits,
	 * a question to its model when it samples.
	 * @param client the call's client
	 * @return the answers
	 */
	@AgentTool(name = "test_input_required_result_capabilities",
			description = "Tool that asks only through the capabilities the client declared", safety = SafetyLevel.SAFE,
			readOnly = true, openWorld = false)
	public String inputRequiredCapabilities(ToolClient client) {
		ToolInputRequiredException missing = null;
		StringBuilder answers = new StringBuilder("answers:");
		if (client.canElicit()) {
			try {
				answers.append(" name=")
					.append(client.elicit(askName("user_name", "What is your name?")).content().get("name"));
			}
			catch (ToolInputRequiredException ex) {
				missing = ex;
			}
		}
		if (client.canSample()) {
			try {
				answers.append(" model=")
					.append(client.sample(SamplingRequest.builder().user("Say hello").maxTokens(50).id("hello").build())
						.text());
			}
			catch (ToolInputRequiredException ex) {
				missing = ex;
			}
		}
		if (missing != null) {
			throw missing;
		}
		return answers.toString();
	}

	private static ElicitationRequest askName(String id, String message) {
		return ElicitationRequest.builder(message)
			.property("name", Map.of("type", "string"))
			.required("name")
			.id(id)
			.build();
	}

	private static ElicitationRequest confirm() {
		return ElicitationRequest.builder("Please confirm")
			.property("ok", Map.of("type", "boolean"))
			.required("ok")
			.id("confirm")
			.build();
	}

	/**
	 * The tool of the scenario {@code json-schema-2020-12}: its input schema is the
	 * scenario's, declared in {@code schemas/json-schema-2020-12.json} ({@code $defs}
	 * with an {@code $anchor}, {@code allOf}/{@code anyOf},
	 * {@code if}/{@code then}/{@code else}), with a parameter for each of its properties.
	 * @param name a name
	 * @param address an address
	 * @param contactMethod {@code phone} or {@code email}
	 * @param phone a phone number
	 * @param email an email address
	 * @return {@code ok}
	 */
	@AgentTool(name = "json_schema_2020_12_tool", description = "Tool with JSON Schema 2020-12 features",
			safety = SafetyLevel.SAFE, readOnly = true, openWorld = false,
			inputSchema = "classpath:schemas/json-schema-2020-12.json")
	public String jsonSchema202012Tool(@AgentToolParam(required = false) String name,
			@AgentToolParam(required = false) Address address, @AgentToolParam(required = false) String contactMethod,
			@AgentToolParam(required = false) String phone, @AgentToolParam(required = false) String email) {
		return "ok";
	}

	/**
	 * An address of the tool {@code json_schema_2020_12_tool}.
	 *
	 * @param street the street
	 * @param city the city
	 */
	public record Address(String street, String city) {
	}

}
