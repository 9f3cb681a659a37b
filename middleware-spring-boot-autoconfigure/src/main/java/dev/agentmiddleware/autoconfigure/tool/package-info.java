/**
 * The Spring side of {@link dev.agentmiddleware.spring.AgentTool @AgentTool} methods:
 * finding them, making tools of them, proxying their beans so that every call runs the
 * tool's chain, building those chains from the context's middleware beans, and the
 * auto-configuration that wires all of it.
 * <p>
 * What users name (public):
 * <ul>
 * <li>{@link dev.agentmiddleware.autoconfigure.tool.AgentToolAutoConfiguration}: the
 * auto-configuration of tool registration (to exclude it, or to order one's own after
 * it), and {@link dev.agentmiddleware.autoconfigure.tool.AgentMiddlewareProperties}, the
 * root {@code agent.middleware} settings (kept here, in the lowest Spring layer, so that
 * every other package can read them without a cycle).</li>
 * <li>{@link dev.agentmiddleware.autoconfigure.tool.AgentToolRegistry}: every tool of the
 * context by name, each a {@link dev.agentmiddleware.autoconfigure.tool.RegisteredTool}
 * (descriptor, owner, argument binder, pipeline);
 * {@link dev.agentmiddleware.autoconfigure.tool.AgentToolContributor} registers tools
 * that are not {@code @AgentTool} methods.</li>
 * <li>{@link dev.agentmiddleware.autoconfigure.tool.ToolCallScope},
 * {@link dev.agentmiddleware.autoconfigure.tool.ToolCallSessionResolver.ToolCallSession}
 * and {@link dev.agentmiddleware.autoconfigure.tool.ToolCallSessionResolver}: the session
 * and principal of direct Java calls.</li>
 * <li>{@code ToolArgumentValidator}: checks bound JSON arguments before the chain (the
 * default uses Bean Validation when it is present).</li>
 * <li>{@link dev.agentmiddleware.autoconfigure.tool.ToolNameReferences}: tool names that
 * configuration refers to, checked against the registered tools at startup; a bad one
 * fails with
 * {@link dev.agentmiddleware.autoconfigure.tool.InvalidToolConfigurationException}. Names
 * compare in canonical form, with a "did you mean …?" for a bad one, by the rule every
 * settings check shares ({@code ToolNames} and {@code NameSuggestions} in
 * {@code autoconfigure.internal}).</li>
 * <li>{@link dev.agentmiddleware.autoconfigure.tool.ValidatedProperties} with
 * {@link dev.agentmiddleware.autoconfigure.tool.PropertyChecks}: the limits of an
 * {@code agent.middleware} properties class, stated once and checked whenever it is bound
 * (here, in the lowest layer, so that every properties class can implement it).</li>
 * </ul>
 * Internals (package-private): {@code ToolMethods} finds the annotated methods of a
 * class, {@code ToolMethod} is what one declares, {@code ToolMethodSchema} (with
 * {@code SchemaParameters} and {@code ParameterConstraintSchema}) generates the JSON
 * schema of its arguments; {@code AgentToolBeanPostProcessor} proxies each bean with
 * tools and registers them, {@code AgentToolMethodInterceptor} runs a direct Java call
 * through the pipeline, whose end, {@code ToolMethodInvoker}, calls the real method,
 * giving a {@link dev.agentmiddleware.tool.ToolProgress} parameter the call's progress
 * and a {@link dev.agentmiddleware.tool.ToolClient} parameter the call's client
 * ({@code ToolProgressParameter}); {@code BeanValidationArgumentValidator} is the Bean
 * Validation argument check; {@code ChainBeans} orders the middleware and interceptor
 * beans into one chain and {@code ToolPipelineFactory} builds each tool's pipeline from
 * it and the observer tier; {@code StandardToolCallSessionResolver} is the default
 * session resolver and {@code AgentToolStartupReport} the startup line naming every tool.
 */
@NullMarked
package dev.agentmiddleware.autoconfigure.tool;

import dev.agentmiddleware.autoconfigure.tool.ToolCallSessionResolver.ToolCallSession;

import dev.agentmiddleware.autoconfigure.internal.ToolNames.NameSuggestions;
import org.jspecify.annotations.NullMarked;
