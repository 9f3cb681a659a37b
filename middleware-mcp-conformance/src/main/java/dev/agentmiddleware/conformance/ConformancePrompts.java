package dev.agentmiddleware.conformance;

import java.util.List;
import java.util.Map;

import io.modelcontextprotocol.server.McpSyncServerExchange;
import io.modelcontextprotocol.spec.McpSchema.CompleteRequest;
import io.modelcontextprotocol.spec.McpSchema.CompleteResult;
import io.modelcontextprotocol.spec.McpSchema.CompleteResult.CompleteCompletion;
import io.modelcontextprotocol.spec.McpSchema.ElicitFormRequest;
import io.modelcontextprotocol.spec.McpSchema.ElicitResult;
import io.modelcontextprotocol.spec.McpSchema.EmbeddedResource;
import io.modelcontextprotocol.spec.McpSchema.GetPromptResult;
import io.modelcontextprotocol.spec.McpSchema.ImageContent;
import io.modelcontextprotocol.spec.McpSchema.PromptMessage;
import io.modelcontextprotocol.spec.McpSchema.Role;
import io.modelcontextprotocol.spec.McpSchema.TextContent;
import io.modelcontextprotocol.spec.McpSchema.TextResourceContents;

import org.springframework.ai.mcp.annotation.McpArg;
import org.springframework.ai.mcp.annotation.McpComplete;
import org.springframework.ai.mcp.annotation.McpPrompt;
import org.springframework.stereotype.Component;

/**
 * The prompts the conformance suite gets, and the completion of a prompt's argument, as
 * Spring AI's {@code @McpPrompt} and {@code @McpComplete} methods.
 */
@Component
public class ConformancePrompts {

	@McpPrompt(name = "test_simple_prompt", description = "A simple prompt for testing")
	public GetPromptResult simplePrompt() {
		return messages(new TextContent("This is a simple prompt for testing."));
	}

	@McpPrompt(name = "test_prompt_with_arguments", description = "A prompt with arguments for testing")
	public GetPromptResult promptWithArguments(
			@McpArg(name = "arg1", description = "First test argument", required = true) String arg1,
			@McpArg(name = "arg2", description = "Second test argument", required = true) String arg2) {
		return messages(new TextContent("Prompt with arguments: arg1='" + arg1 + "', arg2='" + arg2 + "'"));
	}

	@McpPrompt(name = "test_prompt_with_embedded_resource", description = "A prompt with embedded resource for testing")
	public GetPromptResult promptWithEmbeddedResource(
			@McpArg(name = "resourceUri", description = "URI of the resource to embed", required = true) String uri) {
		return messages(
				new EmbeddedResource(null,
						new TextResourceContents(uri, "text/plain", "Embedded resource content for testing.")),
				new TextContent("Please process the embedded resource above."));
	}

	@McpPrompt(name = "test_prompt_with_image", description = "A prompt with image content for testing")
	public GetPromptResult promptWithImage() {
		return messages(new ImageContent(null, ConformanceResources.RED_PIXEL_PNG, "image/png"),
				new TextContent("Please analyze the image above."));
	}

	/**
	 * Asks the user for the prompt's context before answering it (MCP 2026-07-28: the
	 * first {@code prompts/get} answers {@code input_required}, the retry the prompt),
	 * through the request's exchange.
	 * @param exchange the request's exchange
	 * @return the prompt
	 */
	@McpPrompt(name = "test_input_required_result_prompt",
			description = "A prompt that asks the user for context through input_required")
	public GetPromptResult inputRequiredPrompt(McpSyncServerExchange exchange) {
		ElicitResult answer = exchange
			.createElicitation(ElicitFormRequest
				.builder("What context should the prompt use?",
						Map.of("type", "object", "properties", Map.of("context", Map.of("type", "string")), "required",
								List.of("context")))
				.meta(Map.of("dev.agentmiddleware/inputKey", "user_context"))
				.build());
		Object context = (answer.content() != null) ? answer.content().get("context") : null;
		return messages(new TextContent("Use this context: " + context));
	}

	@McpComplete(prompt = "test_prompt_with_arguments")
	public CompleteResult completeArgument(CompleteRequest request) {
		String prefix = request.argument().value();
		List<String> values = List.of("paris", "park", "party")
			.stream()
			.filter((value) -> value.startsWith(prefix))
			.toList();
		return new CompleteResult(new CompleteCompletion(values, values.size(), false));
	}

	private static GetPromptResult messages(io.modelcontextprotocol.spec.McpSchema.Content... contents) {
		return new GetPromptResult(null,
				List.of(contents).stream().map((content) -> new PromptMessage(Role.USER, content)).toList());
	}

}
