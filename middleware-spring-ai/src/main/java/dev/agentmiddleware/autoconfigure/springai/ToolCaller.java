package dev.agentmiddleware.autoconfigure.springai;

import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.Function;

import dev.agentmiddleware.agent.AgentRun;
import dev.agentmiddleware.autoconfigure.internal.ToolPrincipals;
import dev.agentmiddleware.autoconfigure.tool.RegisteredTool;
import dev.agentmiddleware.tool.InvocationSource;
import dev.agentmiddleware.tool.ToolInvocation;
import dev.agentmiddleware.tool.ToolPrincipal;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;

import org.springframework.ai.chat.memory.ChatMemory;
import org.springframework.ai.chat.model.ToolContext;
import org.springframework.core.io.support.SpringFactoriesLoader;

/**
 * Who is calling a tool through Spring AI, read from the {@link ToolContext}: a
 * protocol's client that a {@link ToolContextCallers} of another module recognizes (the
 * MCP server module's: the MCP exchange), or a {@code ChatClient} turn (session id: the
 * thread of the agent run under {@value AgentToolCallingAdvisor#RUN_KEY}, else
 * {@value AgentToolCallback#SESSION_ID_KEY}, else Spring AI's conversation id; the
 * model's tool-call id from the {@link ToolCallReport} the tool-calling manager gives
 * each call; principal from {@value AgentToolCallback#PRINCIPAL_KEY}, else Spring
 * Security's {@code SecurityContext} of the calling thread, through
 * {@link ToolPrincipals}).
 *
 * @param source where the call came from
 * @param sessionId the session, or {@code null}
 * @param principal the principal, or {@code null}
 * @param attributes adds the protocol's invocation attributes (such as the MCP exchange),
 * or {@code null}
 * @param report the tool call of a model's reply being run, or {@code null}
 */
record ToolCaller(InvocationSource source, @Nullable String sessionId, @Nullable ToolPrincipal principal,
		@Nullable Consumer<ToolInvocation.Builder> attributes, @Nullable ToolCallReport report) {

	// The protocols that record their caller in the tool context (the MCP server
	// module's), listed in spring.factories
	private static final List<ToolContextCallers> PROTOCOLS = SpringFactoriesLoader
		.forDefaultResourceLocation(ToolCaller.class.getClassLoader())
		.load(ToolContextCallers.class);

	private static final ToolCaller SPRING_AI = new ToolCaller(InvocationSource.SPRING_AI, null, null, null, null);

	static ToolCaller of(@Nullable ToolContext toolContext) {
		Map<String, Object> context = (toolContext != null) ? toolContext.getContext() : Map.of();
		ToolPrincipal principal = ToolPrincipals.of(named(context.get(AgentToolCallback.PRINCIPAL_KEY)));
		for (ToolContextCallers protocol : PROTOCOLS) {
			ToolContextCallers.Caller caller = protocol.of(context, principal);
			if (caller != null) {
				return new ToolCaller(caller.source(), caller.sessionId(), caller.principal(), caller.attributes(),
						null);
			}
		}
		if (principal == null) {
			principal = ToolPrincipals.current();
		}
		String sessionId = (context.get(AgentToolCallingAdvisor.RUN_KEY) instanceof AgentRun run) ? run.threadId()
				: text(context.get(AgentToolCallback.SESSION_ID_KEY));
		if (sessionId == null) {
			sessionId = text(context.get(ChatMemory.CONVERSATION_ID));
		}
		ToolCallReport report = (context.get(ToolCallReport.KEY) instanceof ToolCallReport each) ? each : null;
		return (sessionId == null && principal == null && report == null) ? SPRING_AI
				: new ToolCaller(InvocationSource.SPRING_AI, sessionId, principal, null, report);
	}

	// A principal given by name only, as a string, is a principal without authorities.
	private static @Nullable Object named(@Nullable Object principal) {
		return (principal instanceof CharSequence name && !name.toString().isBlank())
				? ToolPrincipal.of(name.toString()) : principal;
	}

	/**
	 * Adds what this caller carries beyond session and principal to an invocation being
	 * built.
	 * @param builder the invocation builder
	 * @return the builder
	 */
	ToolInvocation.Builder describe(ToolInvocation.Builder builder) {
		builder.sessionId(this.sessionId).principal(this.principal).source(this.source);
		if (this.report != null) {
			builder.toolCallId(this.report.id());
		}
		if (this.attributes != null) {
			this.attributes.accept(builder);
		}
		return builder;
	}

	boolean isMcp() {
		return this.source == InvocationSource.MCP;
	}

	/**
	 * Runs one Spring AI call of a registered tool, the part every callback of ours
	 * shares, in one pass: the caller is taken from the tool context, the call is
	 * described as unbound (bound inside the pipeline, so that a call refused for its
	 * arguments is observed and counted too) with the callback's own attributes, the
	 * tool's pipeline runs it and its result becomes the text for the model; a failure
	 * becomes what the caller gets ({@link #failed}). <pre>{@code
	 * return ToolCaller.call(tool, toolInput, toolContext, null, String::valueOf, errorFormatter, logger);
	 * }</pre>
	 * @param tool the registered tool
	 * @param toolInput the model's JSON arguments
	 * @param toolContext the tool context of the call
	 * @param attributes adds the callback's own attributes to the described call, or
	 * {@code null}
	 * @param answer turns the pipeline's result into the text for the model
	 * @param errorFormatter formats a failure for the model
	 * @param logger the logger of the calling callback, which logs a failure at DEBUG
	 * @return the text for the model
	 */
	static String call(RegisteredTool tool, @Nullable String toolInput, @Nullable ToolContext toolContext,
			@Nullable Consumer<ToolInvocation.Builder> attributes, Function<@Nullable Object, String> answer,
			ToolErrorFormatter errorFormatter, Logger logger) {
		ToolCaller caller = of(toolContext);
		try {
			ToolInvocation.Builder described = caller.describe(tool.unboundInvocation(toolInput));
			if (attributes != null) {
				attributes.accept(described);
			}
			return answer.apply(tool.pipeline().call(described.build()));
		}
		catch (Exception ex) {
			return caller.failed(tool.name(), ex, errorFormatter, logger);
		}
	}

	/**
	 * What this caller gets for a failed call: the formatted text, which an MCP client
	 * receives as an error result (thrown as {@link ToolCallFailedException}) and a
	 * {@code ChatClient} turn as the tool's answer.
	 * @param toolName the tool that failed
	 * @param failure the failure
	 * @param errorFormatter formats the failure for the model
	 * @param logger the logger of the calling callback, which logs the failure at DEBUG
	 * @return the text for a {@code ChatClient} turn
	 * @throws ToolCallFailedException for an MCP caller
	 */
	String failed(String toolName, Exception failure, ToolErrorFormatter errorFormatter, Logger logger) {
		String text = errorFormatter.format(toolName, failure);
		logger.debug("Tool '{}' failed; the caller gets: {}", toolName, text, failure);
		if (this.report != null) {
			this.report.failed(failure);
		}
		if (isMcp()) {
			throw new ToolCallFailedException(text);
		}
		return text;
	}

	private static @Nullable String text(@Nullable Object value) {
		return (value != null) ? value.toString() : null;
	}

}
