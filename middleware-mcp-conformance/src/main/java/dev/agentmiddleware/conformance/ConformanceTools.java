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
