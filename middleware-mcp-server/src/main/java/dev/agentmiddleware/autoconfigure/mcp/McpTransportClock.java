package dev.agentmiddleware.autoconfigure.mcp;

import java.time.Clock;

/**
 * The clock the hardened MCP transport reads to expire idle sessions; declare a bean of
 * this type to replace the system clock, as tests do. <pre>{@code
 * &#64;Bean
 * McpTransportClock mcpTransportClock() {
 *     return () -> mutableTestClock;
 * }
 * }</pre>
 */
@FunctionalInterface
public interface McpTransportClock {

	/**
	 * The clock.
	 * @return the clock to read
	 */
	Clock clock();

}
