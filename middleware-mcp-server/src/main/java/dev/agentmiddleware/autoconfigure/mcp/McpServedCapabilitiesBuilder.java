package dev.agentmiddleware.autoconfigure.mcp;

import java.util.List;

import io.modelcontextprotocol.server.McpServerFeatures;
import io.modelcontextprotocol.server.McpStatelessServerFeatures;
import io.modelcontextprotocol.spec.McpSchema;

import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.core.ResolvableType;
import org.springframework.core.env.Environment;

/**
 * The capabilities Spring AI's MCP server advertises in {@code initialize}, limited to
 * what the application serves. Spring AI advertises resources, prompts and completions
 * whenever its switches ({@code spring.ai.mcp.server.capabilities.resource},
 * {@code .prompt}, {@code .completion}) are on, which they are by default, so a server of
 * tools only would tell clients of features it answers with nothing. Here each is
 * advertised only when the application declares specifications of it (beans of
 * {@code List<SyncResourceSpecification>}, {@code List<SyncPromptSpecification>}, ..., as
 * Spring AI's annotation scanner does), or when the application sets the switch itself,
 * for specifications it adds another way. Tools are advertised as Spring AI decides.
 * <p>
 * Spring AI always advertises resources without {@code subscribe}; here {@code subscribe}
 * is advertised when {@code agent.middleware.mcp.resources.subscribe} is on, and the MCP
 * SDK then answers {@code resources/subscribe} and {@code resources/unsubscribe}
 * ({@link McpResourceUpdates} sends the updates). <pre>{@code
 * // an application with @AgentTool methods only: {"capabilities":{"logging":{},"tools":{"listChanged":true}}}
 * }</pre>
 */
final class McpServedCapabilitiesBuilder extends McpSchema.ServerCapabilities.Builder {

	private static final String CAPABILITIES = "spring.ai.mcp.server.capabilities.";

	private static final List<Class<?>> RESOURCES = List.of(McpServerFeatures.SyncResourceSpecification.class,
			McpServerFeatures.AsyncResourceSpecification.class,
			McpServerFeatures.SyncResourceTemplateSpecification.class,
			McpServerFeatures.AsyncResourceTemplateSpecification.class,
			McpStatelessServerFeatures.SyncResourceSpecification.class,
			McpStatelessServerFeatures.AsyncResourceSpecification.class,
			McpStatelessServerFeatures.SyncResourceTemplateSpecification.class,
			McpStatelessServerFeatures.AsyncResourceTemplateSpecification.class);

	private static final List<Class<?>> PROMPTS = List.of(McpServerFeatures.SyncPromptSpecification.class,
			McpServerFeatures.AsyncPromptSpecification.class, McpStatelessServerFeatures.SyncPromptSpecification.class,
			McpStatelessServerFeatures.AsyncPromptSpecification.class);

	private static final List<Class<?>> COMPLETIONS = List.of(McpServerFeatures.SyncCompletionSpecification.class,
			McpServerFeatures.AsyncCompletionSpecification.class,
			McpStatelessServerFeatures.SyncCompletionSpecification.class,
			McpStatelessServerFeatures.AsyncCompletionSpecification.class);

	private final ListableBeanFactory beanFactory;

	private final Environment environment;

	private final boolean subscribe;

	McpServedCapabilitiesBuilder(ListableBeanFactory beanFactory, Environment environment, boolean subscribe) {
		this.beanFactory = beanFactory;
		this.environment = environment;
		this.subscribe = subscribe;
	}

	@Override
	public McpSchema.ServerCapabilities.Builder resources(Boolean subscribe, Boolean listChanged) {
		return served("resource", RESOURCES)
				? super.resources(this.subscribe || Boolean.TRUE.equals(subscribe), listChanged) : this;
	}

	@Override
	public McpSchema.ServerCapabilities.Builder prompts(Boolean listChanged) {
		return served("prompt", PROMPTS) ? super.prompts(listChanged) : this;
	}

	@Override
	public McpSchema.ServerCapabilities.Builder completions() {
		return served("completion", COMPLETIONS) ? super.completions() : this;
	}

	// Asked while Spring AI builds its server, which reads the same beans right after
	private boolean served(String capability, List<Class<?>> specificationTypes) {
		if (this.environment.containsProperty(CAPABILITIES + capability)) {
			return true;
		}
		for (Class<?> type : specificationTypes) {
			boolean declared = this.beanFactory.getBeanProvider(ResolvableType.forClassWithGenerics(List.class, type))
				.stream()
				.anyMatch((specifications) -> !((List<?>) specifications).isEmpty());
			if (declared) {
				return true;
			}
		}
		return false;
	}

}
