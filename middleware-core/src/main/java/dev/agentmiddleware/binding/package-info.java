/**
 * Binding of a tool call's JSON arguments, as a model or an MCP client sends them, to the
 * Java types of the tool's parameters, before the chain runs
 * ({@link dev.agentmiddleware.binding.JsonArgumentBinder}).
 */
@NullMarked
package dev.agentmiddleware.binding;

import org.jspecify.annotations.NullMarked;
