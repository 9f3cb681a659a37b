package dev.agentmiddleware.autoconfigure.mcp;

import org.springframework.ai.mcp.customizer.McpSyncServerCustomizer;
import org.springframework.beans.factory.config.BeanPostProcessor;

/**
 * Switches off the MCP SDK's check of tool arguments against the tool's input schema, by
 * extending every {@link McpSyncServerCustomizer} bean (Spring AI declares one for
 * servlet applications). Our binder checks the arguments inside the chain instead, where
 * a refused call is logged, counted and observed, with the same rules and messages as on
 * the {@code ChatClient} path.
 */
final class McpSyncServerCustomizerPostProcessor implements BeanPostProcessor {

	@Override
	public Object postProcessAfterInitialization(Object bean, String beanName) {
		if (bean instanceof McpSyncServerCustomizer customizer) {
			return (McpSyncServerCustomizer) (builder) -> {
				customizer.customize(builder);
				builder.validateToolInputs(false);
			};
		}
		return bean;
	}

}
