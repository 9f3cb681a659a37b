/**
 * The Spring side of {@link dev.agentmiddleware.spring.AgentTool @AgentTool} methods: finding them, making tools of
 * them, proxying their beans so that every call runs the tool's chain, and building those chains from the context's
 * middleware beans.
 * <ul>
 * <li><b>Reading a method</b> (package-private): {@code ToolMethods} finds the annotated methods of a class (also
 * inherited ones and those annotated on an interface); {@code ToolMethod} is what one declares, its descriptor and
 * parameters; {@code ToolMethodSchema} generates the JSON schema of its arguments and the parameters they bind to;
 * {@link dev.agentmiddleware.spring.tool.ToolNames} gives tool names (snake case by default) and their canonical
 * form.</li>
 * <li><b>Registering and calling</b>: {@link dev.agentmiddleware.spring.tool.AgentToolBeanPostProcessor} proxies
 * each bean with tools and registers them in the {@link dev.agentmiddleware.spring.tool.AgentToolRegistry}, which
 * holds one {@link dev.agentmiddleware.spring.tool.RegisteredTool} per tool (descriptor, argument binder, pipeline);
 * the package-private {@code AgentToolMethodInterceptor} runs a direct Java call through the pipeline, whose end,
 * {@code ToolMethodInvoker}, calls the real method.</li>
 * <li><b>Checking arguments</b>: a {@link dev.agentmiddleware.spring.tool.ToolArgumentValidator} checks bound JSON
 * arguments before the chain, {@link dev.agentmiddleware.spring.tool.BeanValidationArgumentValidator} with Bean
 * Validation constraints.</li>
 * <li><b>Building chains</b>: {@link dev.agentmiddleware.spring.tool.ChainBeans} orders the middleware and
 * interceptor beans into one chain, and {@link dev.agentmiddleware.spring.tool.ToolPipelineFactory} builds each
 * tool's pipeline from it and the observer tier.</li>
 * <li><b>Checking configuration</b>: {@link dev.agentmiddleware.spring.tool.ToolNameReferences} are the tool names
 * configuration refers to, checked against the registered tools at startup.</li>
 * </ul>
 */
@NullMarked
package dev.agentmiddleware.spring.tool;

import org.jspecify.annotations.NullMarked;
