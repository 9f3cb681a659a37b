/**
 * What application code names in a Spring application: the annotations that turn Spring
 * bean methods into governed agent tools ({@link dev.agentmiddleware.spring.AgentTool},
 * {@link dev.agentmiddleware.spring.AgentToolParam}) and what a call that came over MCP
 * carries ({@link dev.agentmiddleware.autoconfigure.mcp.McpInvocationAttributes}). No
 * auto-configuration lives here (they are all under
 * {@code dev.agentmiddleware.autoconfigure}); this package sits below all of them, so
 * that Spring AI's and the MCP server's packages can both use the MCP call contract
 * without depending on each other.
 */
@NullMarked
package dev.agentmiddleware.spring;

import org.jspecify.annotations.NullMarked;
