package dev.agentmiddleware.autoconfigure.mcp;

import java.util.List;
import java.util.Set;
import java.util.function.Function;

import io.modelcontextprotocol.server.McpAsyncServer;
import io.modelcontextprotocol.spec.McpSchema;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Flux;

/**
 * The {@link StatelessMcpCatalog} of what Spring AI's MCP server serves now: a tool,
 * prompt, resource or resource template removed from it at runtime
 * ({@code McpSyncServer.removeTool(...)} and the like, which tell its sessions with a
 * {@code list_changed} notification) is no longer served to {@code 2026-07-28} clients
 * either, and served again once it is added back. A specification added at runtime that
 * no specification bean holds is served to sessions only: its handler is the MCP server's
 * own.
 */
final class StatelessMcpLiveCatalog {

	private StatelessMcpLiveCatalog() {
	}

	/**
	 * The declared catalog, less what the MCP server does not serve now.
	 * @param declared the catalog of the specification beans
	 * @param server the MCP server, {@code null} when none runs (the declared catalog is
	 * served as it is)
	 * @return the catalog
	 */
	static StatelessMcpCatalog of(StatelessMcpCatalog declared, @Nullable McpAsyncServer server) {
		if (server == null) {
			return declared;
		}
		Set<String> tools = names(server.listTools(), McpSchema.Tool::name);
		Set<String> prompts = names(server.listPrompts(), McpSchema.Prompt::name);
		Set<String> resources = names(server.listResources(), McpSchema.Resource::uri);
		Set<String> templates = names(server.listResourceTemplates(), McpSchema.ResourceTemplate::uriTemplate);
		return new StatelessMcpCatalog(declared.serverInfo(), declared.instructions(),
				kept(declared.tools(), (tool) -> tools.contains(tool.tool().name())),
				kept(declared.resources(), (resource) -> resources.contains(resource.resource().uri())),
				kept(declared.resourceTemplates(),
						(template) -> templates.contains(template.resourceTemplate().uriTemplate())),
				kept(declared.prompts(), (prompt) -> prompts.contains(prompt.prompt().name())), declared.completions());
	}

	private static <T> Set<String> names(Flux<T> listed, Function<T, String> name) {
		List<String> names = listed.map(name).collectList().block();
		return (names != null) ? Set.copyOf(names) : Set.of();
	}

	private static <T> List<T> kept(List<T> specifications, Function<T, Boolean> served) {
		return specifications.stream().filter(served::apply).toList();
	}

}
