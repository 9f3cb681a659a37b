package dev.agentmiddleware.autoconfigure.tool;

/**
 * Registers tools that are not {@code @AgentTool} methods, such as the tools of agent
 * middleware, with the {@link AgentToolRegistry}. Every bean of this type contributes
 * once, before the registry is first read and before startup checks the tool names
 * configuration refers to, so contributed tools can be configured like any other.
 * <pre>{@code
 * &#64;Bean
 * AgentToolContributor weatherTools() {
 *     return (registry) -> registry.register(weatherTool, "my-library");
 * }
 * }</pre>
 */
@FunctionalInterface
public interface AgentToolContributor {

	/**
	 * Registers tools.
	 * @param registry the registry, through
	 * {@link AgentToolRegistry#register(dev.agentmiddleware.tool.ExecutableTool, String)}
	 */
	void contribute(AgentToolRegistry registry);

}
