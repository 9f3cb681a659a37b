/**
 * The tool model: what a tool is ({@link dev.agentmiddleware.tool.ToolDescriptor}), one call of it
 * ({@link dev.agentmiddleware.tool.ToolInvocation}) and the failures the chain reports.
 */
@NullMarked
package dev.agentmiddleware.tool;

import org.jspecify.annotations.NullMarked;
