package dev.agentmiddleware.autoconfigure.mcp;

import java.util.HashMap;
import java.util.Map;
import java.util.function.Function;

import dev.agentmiddleware.autoconfigure.internal.ToolNames;
import dev.agentmiddleware.autoconfigure.tool.AgentToolRegistry;
import dev.agentmiddleware.autoconfigure.tool.RegisteredTool;
import dev.agentmiddleware.spring.AgentTool;
import dev.agentmiddleware.spring.AgentTool.TaskSupport;
import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.ObjectProvider;

/**
 * The task support of each tool, as its {@link AgentTool#taskSupport()} declares it; a
 * tool that is not an annotated method (a governed Spring AI tool, an ungoverned one)
 * never runs as a task. Read from the registry on the first question, when every tool is
 * registered.
 */
final class McpToolTaskSupport implements Function<String, TaskSupport> {

	private final ObjectProvider<AgentToolRegistry> registry;

	private volatile @Nullable Map<String, TaskSupport> supports;

	private McpToolTaskSupport(ObjectProvider<AgentToolRegistry> registry) {
		this.registry = registry;
	}

	static McpToolTaskSupport of(ObjectProvider<AgentToolRegistry> registry) {
		return new McpToolTaskSupport(registry);
	}

	@Override
	public TaskSupport apply(String toolName) {
		Map<String, TaskSupport> supports = this.supports;
		if (supports == null) {
			supports = new HashMap<>();
			AgentToolRegistry tools = this.registry.getIfAvailable();
			if (tools != null) {
				for (RegisteredTool tool : tools.tools()) {
					AgentTool annotation = (tool.method() != null) ? ToolNames.annotation(tool.method()) : null;
					if (annotation != null && annotation.taskSupport() != TaskSupport.FORBIDDEN) {
						supports.put(tool.name(), annotation.taskSupport());
					}
				}
			}
			this.supports = Map.copyOf(supports);
		}
		return supports.getOrDefault(toolName, TaskSupport.FORBIDDEN);
	}

}
