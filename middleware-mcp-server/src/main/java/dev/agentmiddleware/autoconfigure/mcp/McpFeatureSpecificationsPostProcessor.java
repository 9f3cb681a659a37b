package dev.agentmiddleware.autoconfigure.mcp;

import java.util.List;

import io.modelcontextprotocol.server.McpServerFeatures.SyncCompletionSpecification;
import io.modelcontextprotocol.server.McpServerFeatures.SyncPromptSpecification;
import io.modelcontextprotocol.server.McpServerFeatures.SyncResourceSpecification;
import io.modelcontextprotocol.server.McpServerFeatures.SyncResourceTemplateSpecification;
import io.modelcontextprotocol.spec.McpSchema;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.BeanPostProcessor;

/**
 * Counts and logs ({@link McpFeatureRequests}) the requests for the resources, resource
 * templates, prompts and completions the application publishes on the (synchronous) MCP
 * server, by wrapping the handler of each specification in the {@code List} beans Spring
 * AI's MCP server reads them from (its annotation scanner's, or the application's own).
 */
final class McpFeatureSpecificationsPostProcessor implements BeanPostProcessor {

	private final ObjectProvider<McpFeatureRequests> requests;

	McpFeatureSpecificationsPostProcessor(ObjectProvider<McpFeatureRequests> requests) {
		this.requests = requests;
	}

	@Override
	public Object postProcessAfterInitialization(Object bean, String beanName) {
		if (!(bean instanceof List<?> list) || list.isEmpty() || !list.stream().allMatch(this::isFeature)) {
			return bean;
		}
		McpFeatureRequests requests = this.requests.getObject();
		return list.stream().map((specification) -> counted(requests, specification)).toList();
	}

	private boolean isFeature(Object element) {
		return element instanceof SyncResourceSpecification || element instanceof SyncResourceTemplateSpecification
				|| element instanceof SyncPromptSpecification || element instanceof SyncCompletionSpecification;
	}

	private static Object counted(McpFeatureRequests requests, Object specification) {
		if (specification instanceof SyncResourceSpecification resource) {
			String uri = resource.resource().uri();
			return new SyncResourceSpecification(resource.resource(),
					(exchange, request) -> requests.serve(McpSchema.METHOD_RESOURCES_READ, uri, exchange,
							() -> resource.readHandler().apply(exchange, request)));
		}
		if (specification instanceof SyncResourceTemplateSpecification template) {
			String uriTemplate = template.resourceTemplate().uriTemplate();
			return new SyncResourceTemplateSpecification(template.resourceTemplate(),
					(exchange, request) -> requests.serve(McpSchema.METHOD_RESOURCES_READ, uriTemplate, exchange,
							() -> template.readHandler().apply(exchange, request)));
		}
		if (specification instanceof SyncPromptSpecification prompt) {
			String name = prompt.prompt().name();
			return new SyncPromptSpecification(prompt.prompt(),
					(exchange, request) -> requests.serve(McpSchema.METHOD_PROMPT_GET, name, exchange,
							() -> prompt.promptHandler().apply(exchange, request)));
		}
		SyncCompletionSpecification completion = (SyncCompletionSpecification) specification;
		String reference = completion.referenceKey().type() + ":" + completion.referenceKey().identifier();
		return new SyncCompletionSpecification(completion.referenceKey(),
				(exchange, request) -> requests.serve(McpSchema.METHOD_COMPLETION_COMPLETE, reference, exchange,
						() -> completion.completionHandler().apply(exchange, request)));
	}

}
