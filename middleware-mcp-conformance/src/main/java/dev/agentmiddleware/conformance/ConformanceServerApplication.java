package dev.agentmiddleware.conformance;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

/**
 * The server the official MCP conformance suite
 * ({@code @modelcontextprotocol/conformance}) is run against: a Boot application on
 * {@code middleware-spring-boot-starter-mcp}, written only with the public API. The tools
 * the suite calls are {@code @AgentTool} methods ({@link ConformanceTools}), so every
 * call goes through the chain; resources, prompts and completions are Spring AI's MCP
 * annotations ({@link ConformanceResources}, {@link ConformancePrompts}), published
 * because {@code application.properties} turns the annotation scanner on.
 * <p>
 * Run it with {@code ./mvnw -pl middleware-mcp-conformance -am spring-boot:run}: it
 * serves {@code http://localhost:3001/mcp}.
 */
@SpringBootApplication
public class ConformanceServerApplication {

	public static void main(String[] args) {
		SpringApplication.run(ConformanceServerApplication.class, args);
	}

}
