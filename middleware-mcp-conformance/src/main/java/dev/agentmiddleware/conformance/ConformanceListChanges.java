package dev.agentmiddleware.conformance;

import java.util.List;
import java.util.function.Function;

import dev.agentmiddleware.spring.AgentTool;
import dev.agentmiddleware.tool.ToolDescriptor.SafetyLevel;
import io.modelcontextprotocol.server.McpServerFeatures.SyncPromptSpecification;
import io.modelcontextprotocol.server.McpServerFeatures.SyncToolSpecification;
import io.modelcontextprotocol.server.McpSyncServer;
import io.modelcontextprotocol.spec.McpSchema.GetPromptResult;
import io.modelcontextprotocol.spec.McpSchema.PromptMessage;
import io.modelcontextprotocol.spec.McpSchema.Role;
import io.modelcontextprotocol.spec.McpSchema.TextContent;

import org.springframework.ai.mcp.annotation.McpPrompt;
import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.core.ResolvableType;
import org.springframework.stereotype.Component;

/**
 * The hooks the scenario {@code server-stateless} calls to change the lists of tools and
 * prompts while a {@code subscriptions/listen} stream is open: each takes a feature of
 * its own out of Spring AI's MCP server ({@code McpSyncServer.removeTool},
 * {@code removePrompt}), or puts it back, which tells every client that the list changed.
 * The features toggled are declared as any other ({@code test_dynamic_tool},
 * {@code test_dynamic_prompt}), so that both revisions serve them alike.
 */
@Component
public class ConformanceListChanges {

	private static final String DYNAMIC_TOOL = "test_dynamic_tool";

	private static final String DYNAMIC_PROMPT = "test_dynamic_prompt";

	private final ObjectProvider<McpSyncServer> server;

	private final ListableBeanFactory beanFactory;

	public ConformanceListChanges(ObjectProvider<McpSyncServer> server, ListableBeanFactory beanFactory) {
		this.server = server;
		this.beanFactory = beanFactory;
	}

	@AgentTool(name = DYNAMIC_TOOL, description = "A tool that test_trigger_tool_change takes away and puts back",
			safety = SafetyLevel.SAFE, readOnly = true, openWorld = false)
	public String dynamicTool() {
		return "Still here";
	}

	@McpPrompt(name = DYNAMIC_PROMPT, description = "A prompt that test_trigger_prompt_change takes away and puts back")
	public GetPromptResult dynamicPrompt() {
		return new GetPromptResult(null, List.of(new PromptMessage(Role.USER, new TextContent("Still here"))));
	}

	@AgentTool(name = "test_trigger_tool_change",
			description = "Takes test_dynamic_tool away, or puts it back: the list of tools changes",
			safety = SafetyLevel.SAFE, openWorld = false)
	public String triggerToolChange() {
		McpSyncServer server = this.server.getObject();
		if (server.listTools().stream().anyMatch((tool) -> tool.name().equals(DYNAMIC_TOOL))) {
			server.removeTool(DYNAMIC_TOOL);
			return DYNAMIC_TOOL + " removed";
		}
		server.addTool(declared(SyncToolSpecification.class, (tool) -> tool.tool().name(), DYNAMIC_TOOL));
		return DYNAMIC_TOOL + " added";
	}

	@AgentTool(name = "test_trigger_prompt_change",
			description = "Takes test_dynamic_prompt away, or puts it back: the list of prompts changes",
			safety = SafetyLevel.SAFE, openWorld = false)
	public String triggerPromptChange() {
		McpSyncServer server = this.server.getObject();
		if (server.listPrompts().stream().anyMatch((prompt) -> prompt.name().equals(DYNAMIC_PROMPT))) {
			server.removePrompt(DYNAMIC_PROMPT);
			return DYNAMIC_PROMPT + " removed";
		}
		server.addPrompt(declared(SyncPromptSpecification.class, (prompt) -> prompt.prompt().name(), DYNAMIC_PROMPT));
		return DYNAMIC_PROMPT + " added";
	}

	// The specification the application declared for a feature, as Spring AI's server
	// got it at startup
	private <T> T declared(Class<T> type, Function<T, String> name, String wanted) {
		return this.beanFactory.<List<T>>getBeanProvider(ResolvableType.forClassWithGenerics(List.class, type))
			.orderedStream()
			.flatMap(List::stream)
			.filter((specification) -> name.apply(specification).equals(wanted))
			.findFirst()
			.orElseThrow(() -> new IllegalStateException("No specification declares " + wanted));
	}

}
