/**
 * What the Spring layer reads from an {@link dev.agentmiddleware.spring.AgentTool} method to make a tool of it:
 * its name ({@link dev.agentmiddleware.spring.tool.ToolNames}), the JSON schema of its arguments and its
 * parameters for binding ({@link dev.agentmiddleware.spring.tool.ToolMethodSchema}).
 */
@NullMarked
package dev.agentmiddleware.spring.tool;

import org.jspecify.annotations.NullMarked;
