package dev.agentmiddleware.autoconfigure.springai;

import dev.agentmiddleware.autoconfigure.AgentMiddlewareAutoConfiguration;
import dev.agentmiddleware.autoconfigure.springai.AgentToolCallback.AgentToolCallbackProvider;
import dev.agentmiddleware.autoconfigure.tool.AgentMiddlewareProperties;
import dev.agentmiddleware.autoconfigure.tool.AgentToolRegistry;
import dev.agentmiddleware.redaction.SecretRedactor;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.ai.tool.ToolCallback;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;

/**
 * Exposes every {@code @AgentTool} to Spring AI (and, through Spring AI's MCP server, to
 * MCP clients) as a {@link ToolCallback} that runs the tool's middleware chain.
 */
@AutoConfiguration(after = AgentMiddlewareAutoConfiguration.class)
@ConditionalOnClass(ToolCallback.class)
@ConditionalOnBean(AgentToolRegistry.class)
public final class AgentToolSpringAiAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean
	ToolErrorFormatter toolErrorFormatter(SecretRedactor secretRedactor, AgentMiddlewareProperties properties) {
		return new DefaultToolErrorFormatter(secretRedactor, properties.getErrors().getMaxLength());
	}

	@Bean
	@ConditionalOnMissingBean
	AgentToolCallbackProvider agentToolCallbackProvider(AgentToolRegistry registry, ToolErrorFormatter errorFormatter,
			ObjectProvider<JsonMapper> jsonMapper) {
		return new AgentToolCallbackProvider(registry, errorFormatter, jsonMapper.getIfAvailable(JsonMapper::new));
	}

}
