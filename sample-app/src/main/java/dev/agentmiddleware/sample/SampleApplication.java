package dev.agentmiddleware.sample;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

/**
 * An MCP tool server whose tools run through the agent tool middleware chain. Start it
 * with {@code ./mvnw -pl sample-app -am spring-boot:run} and point an MCP client at
 * {@code http://localhost:8080/mcp}.
 */
@SpringBootApplication
public class SampleApplication {

	public static void main(String[] args) {
		TerminationSignal.exitNormallyOnSigterm();
		SpringApplication.run(SampleApplication.class, args);
	}

}
