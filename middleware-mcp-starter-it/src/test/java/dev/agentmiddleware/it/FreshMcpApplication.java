package dev.agentmiddleware.it;

import org.springframework.ai.tool.ToolCallbackProvider;
import org.springframework.ai.tool.method.MethodToolCallbackProvider;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.context.annotation.Bean;

/**
 * A brand-new application: the MCP starter, a few {@code @AgentTool}s, one tool published
 * the Spring AI way, and no configuration at all.
 */
@SpringBootApplication
public class FreshMcpApplication {

	@Bean
	ToolCallbackProvider clockTools() {
		return MethodToolCallbackProvider.builder().toolObjects(new ClockTools()).build();
	}

	public static void main(String[] args) {
		SpringApplication.run(FreshMcpApplication.class, args);
	}

}
