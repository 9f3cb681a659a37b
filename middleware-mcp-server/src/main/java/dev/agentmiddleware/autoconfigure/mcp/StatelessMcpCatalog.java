package dev.agentmiddleware.autoconfigure.mcp;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.function.Function;

import io.modelcontextprotocol.server.McpServerFeatures.SyncCompletionSpecification;
import io.modelcontextprotocol.server.McpServerFeatures.SyncPromptSpecification;
import io.modelcontextprotocol.server.McpServerFeatures.SyncResourceSpecification;
import io.modelcontextprotocol.server.McpServerFeatures.SyncResourceTemplateSpecification;
import io.modelcontextprotocol.server.McpServerFeatures.SyncToolSpecification;
import io.modelcontextprotocol.spec.McpSchema;
import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.core.ResolvableType;

/**
 * What the server offers a {@code 2026-07-28} client: its tools, resources, resource
 * templates, prompts and completions, and how it names itself. This is the seam between
 * our wire layer ({@link StatelessMcpServer}) and what is served: it is built from the
 * same specifications Spring AI's MCP server is given (the {@code List} beans of
 * {@code @AgentTool} tools with their governed handlers, {@link McpToolHandler}, and of
 * the resources, prompts and completions its annotation scanner or the application
 * publishes, already wrapped by {@link McpFeatureSpecificationsPostProcessor}), so both
 * revisions call the same handlers. When the MCP Java SDK ships a server of the revision,
 * it can be given these specifications instead, and the wire layer goes. Each list is in
 * a deterministic order (by name or URI), so that a list result is the same on every
 * instance. Immutable.
 *
 * @param serverInfo how the server names itself
 * @param instructions the server's instructions, {@code null} for none
 * @param tools the tools, by name
 * @param resources the resources, by URI
 * @param resourceTemplates the resource templates, by URI template
 * @param prompts the prompts, by name
 * @param completions the completions
 */
record StatelessMcpCatalog(McpSchema.Implementation serverInfo, @Nullable String instructions,
		List<SyncToolSpecification> tools, List<SyncResourceSpecification> resources,
		List<SyncResourceTemplateSpecification> resourceTemplates, List<SyncPromptSpecification> prompts,
		List<SyncCompletionSpecification> completions) {

	/** A catalog of nothing, for a transport built without one. */
	static final StatelessMcpCatalog EMPTY = new StatelessMcpCatalog(
			new McpSchema.Implementation("mcp-server", "1.0.0"), null, List.of(), List.of(), List.of(), List.of(),
			List.of());

	StatelessMcpCatalog {
		tools = sorted(tools, (tool) -> tool.tool().name());
		resources = sorted(resources, (resource) -> resource.resource().uri());
		resourceTemplates = sorted(resourceTemplates, (template) -> template.resourceTemplate().uriTemplate());
		prompts = sorted(prompts, (prompt) -> prompt.prompt().name());
		completions = List.copyOf(completions);
	}

	/**
	 * The catalog of the specification beans Spring AI's MCP server reads.
	 * @param beanFactory the application's bean factory
	 * @param serverInfo how the server names itself
	 * @param instructions the server's instructions, {@code null} for none
	 * @return the catalog
	 */
	static StatelessMcpCatalog of(ListableBeanFactory beanFactory, McpSchema.Implementation serverInfo,
			@Nullable String instructions) {
		return new StatelessMcpCatalog(serverInfo, instructions, beans(beanFactory, SyncToolSpecification.class),
				beans(beanFactory, SyncResourceSpecification.class),
				beans(beanFactory, SyncResourceTemplateSpecification.class),
				beans(beanFactory, SyncPromptSpecification.class),
				beans(beanFactory, SyncCompletionSpecification.class));
	}

	/**
	 * The capabilities of the catalog: each kind of feature only when something of it is
	 * served. No {@code listChanged} nor {@code subscribe}: what the MCP server notifies
	 * is added by {@link StatelessMcpSubscriptions#capabilities}.
	 * @return the capabilities
	 */
	McpSchema.ServerCapabilities capabilities() {
		McpSchema.ServerCapabilities.Builder capabilities = McpSchema.ServerCapabilities.builder();
		if (!this.tools.isEmpty()) {
			capabilities.tools(false);
		}
		if (!this.resources.isEmpty() || !this.resourceTemplates.isEmpty()) {
			capabilities.resources(false, false);
		}
		if (!this.prompts.isEmpty()) {
			capabilities.prompts(false);
		}
		if (!this.completions.isEmpty()) {
			capabilities.completions();
		}
		return capabilities.build();
	}

	@Nullable SyncToolSpecification tool(String name) {
		return this.tools.stream().filter((tool) -> tool.tool().name().equals(name)).findFirst().orElse(null);
	}

	@Nullable SyncPromptSpecification prompt(String name) {
		return this.prompts.stream().filter((prompt) -> prompt.prompt().name().equals(name)).findFirst().orElse(null);
	}

	@Nullable SyncCompletionSpecification completion(McpSchema.CompleteReference reference) {
		return this.completions.stream()
			.filter((completion) -> completion.referenceKey().type().equals(reference.type())
					&& completion.referenceKey().identifier().equals(reference.identifier()))
			.findFirst()
			.orElse(null);
	}

	private static <T> List<T> beans(ListableBeanFactory beanFactory, Class<T> type) {
		List<T> all = new ArrayList<>();
		beanFactory.<List<T>>getBeanProvider(ResolvableType.forClassWithGenerics(List.class, type))
			.orderedStream()
			.forEach(all::addAll);
		return all;
	}

	private static <T> List<T> sorted(List<T> specifications, Function<T, String> key) {
		return specifications.stream().sorted(Comparator.comparing(key)).toList();
	}

}
