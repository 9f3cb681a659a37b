package dev.agentmiddleware.autoconfigure.tool;

import java.lang.reflect.Method;
import java.lang.reflect.Parameter;
import java.time.Clock;

import dev.agentmiddleware.logging.ToolClientLog;
import dev.agentmiddleware.tool.ToolClient;
import dev.agentmiddleware.tool.ToolProgress.ProgressTarget;
import dev.agentmiddleware.tool.ToolInvocation;
import dev.agentmiddleware.tool.ToolProgress;
import org.jspecify.annotations.Nullable;

import org.springframework.util.ClassUtils;

/**
 * The parameters of an {@code @AgentTool} method that are given by the call rather than
 * bound from its arguments (not in its schema, not bound from JSON, not in a cache key or
 * an approval): its {@link ToolProgress} parameter, if it declares one, given the
 * progress of each call (the reporter of the call's {@link ProgressTarget}, or
 * {@link ToolProgress#NONE} when its caller asked for none), and its {@link ToolClient}
 * parameter, if it declares one, given the client of each call
 * ({@link ToolClient#ATTRIBUTE}, or the application log when the call has none), whose
 * requests are logged, observed and recorded with the call ({@link ToolClientLog}).
 *
 * @param index the progress parameter's position among the method's parameters,
 * {@code -1} when it declares none
 * @param clientIndex the client parameter's position among the method's parameters,
 * {@code -1} when it declares none
 */
record ToolProgressParameter(int index, int clientIndex) {

	static final ToolProgressParameter NONE = new ToolProgressParameter(-1, -1);

	/**
	 * The progress and client parameters of a tool method.
	 * @param method the method
	 * @return its parameters, {@link #NONE} when it declares neither
	 * @throws IllegalStateException if it declares more than one of a kind
	 */
	static ToolProgressParameter of(Method method) {
		int progress = -1;
		int client = -1;
		Parameter[] parameters = method.getParameters();
		for (int i = 0; i < parameters.length; i++) {
			Class<?> type = parameters[i].getType();
			if (type == ToolProgress.class) {
				if (progress >= 0) {
					throw new IllegalStateException("Tool method " + ClassUtils.getQualifiedMethodName(method)
							+ " declares more than one ToolProgress parameter; declare one, which reports the progress "
							+ "of each call");
				}
				progress = i;
			}
			else if (type == ToolClient.class) {
				if (client >= 0) {
					throw new IllegalStateException("Tool method " + ClassUtils.getQualifiedMethodName(method)
							+ " declares more than one ToolClient parameter; declare one, which talks to the client "
							+ "of each call");
				}
				client = i;
			}
		}
		return (progress >= 0 || client >= 0) ? new ToolProgressParameter(progress, client) : NONE;
	}

	/**
	 * Whether a method parameter is given by the call (its progress or its client) rather
	 * than one of the tool's arguments.
	 */
	static boolean is(Parameter parameter) {
		return parameter.getType() == ToolProgress.class || parameter.getType() == ToolClient.class;
	}

	boolean isDeclared() {
		return this.index >= 0 || this.clientIndex >= 0;
	}

	/**
	 * What the method is given for a call: the tool's argument values with the call's
	 * progress and client in their places.
	 * @param arguments the argument values, in the order of the tool's arguments
	 * @param progress the call's progress
	 * @param client the call's client, or {@code null} (only to validate the arguments)
	 * @return the method's values; {@code arguments} itself when the method declares
	 * neither
	 */
	@Nullable Object[] methodValues(@Nullable Object[] arguments, ToolProgress progress, @Nullable ToolClient client) {
		if (!isDeclared()) {
			return arguments;
		}
		@Nullable Object[] values = new Object[arguments.length + count()];
		int next = 0;
		for (int i = 0; i < values.length; i++) {
			if (i == this.index) {
				values[i] = progress;
			}
			else if (i == this.clientIndex) {
				values[i] = client;
			}
			else {
				values[i] = arguments[next++];
			}
		}
		return values;
	}

	/**
	 * The tool's argument values of a direct Java call of the method: its values without
	 * the progress and client.
	 * @param values the method's values
	 * @return the argument values; a copy of {@code values} when the method declares
	 * neither
	 */
	@Nullable Object[] argumentValues(@Nullable Object[] values) {
		if (!isDeclared()) {
			return values.clone();
		}
		@Nullable Object[] arguments = new Object[values.length - count()];
		int next = 0;
		for (int i = 0; i < values.length; i++) {
			if (i != this.index && i != this.clientIndex) {
				arguments[next++] = values[i];
			}
		}
		return arguments;
	}

	/**
	 * The position among the tool's arguments of a method parameter that is one.
	 * @param methodIndex the parameter's position among the method's parameters
	 * @return its position among the tool's arguments
	 */
	int argumentIndex(int methodIndex) {
		int index = methodIndex;
		index -= (this.index >= 0 && methodIndex > this.index) ? 1 : 0;
		index -= (this.clientIndex >= 0 && methodIndex > this.clientIndex) ? 1 : 0;
		return index;
	}

	private int count() {
		return ((this.index >= 0) ? 1 : 0) + ((this.clientIndex >= 0) ? 1 : 0);
	}

	/**
	 * The client a direct Java call's caller passed, if the method declares a client
	 * parameter.
	 * @param values the method's values
	 * @return the client passed, or {@code null}
	 */
	@Nullable ToolClient javaClient(@Nullable Object[] values) {
		return (this.clientIndex >= 0 && values[this.clientIndex] instanceof ToolClient client) ? client : null;
	}

	/**
	 * The client a call's tool method is given.
	 * @param invocation the call
	 * @return the call's client, or the application log, whose requests are logged,
	 * observed and recorded with the call
	 */
	static ToolClient client(ToolInvocation invocation) {
		return ToolClientLog.of(invocation.attribute(ToolClient.ATTRIBUTE), invocation);
	}

	/**
	 * Where the progress of a direct Java call goes: to the {@code ToolProgress} its
	 * caller passed, at most once per {@link ProgressTarget#DEFAULT_INTERVAL}.
	 * @param values the method's values
	 * @return the target, or {@code null} when the caller passed none (or the method
	 * declares no progress)
	 */
	@Nullable ProgressTarget javaTarget(@Nullable Object[] values) {
		if (this.index < 0 || !(values[this.index] instanceof ToolProgress given) || !given.isReported()) {
			return null;
		}
		return ProgressTarget.of(given, ProgressTarget.DEFAULT_INTERVAL, Clock.systemUTC());
	}

	/**
	 * Gives a direct Java call that runs no middleware the progress it would get through
	 * its pipeline: a reporter of the {@code ToolProgress} its caller passed,
	 * {@link ToolProgress#NONE} for {@code null}; and, in place of a {@code null} client,
	 * the application log.
	 * @param values the method's values, changed in place
	 * @param toolName the tool's name
	 * @return the progress given, to {@linkplain #finish(ToolProgress) finish} when the
	 * method returns
	 */
	ToolProgress bindJava(@Nullable Object[] values, String toolName) {
		if (this.clientIndex >= 0 && values[this.clientIndex] == null) {
			values[this.clientIndex] = ToolClient.applicationLog(toolName);
		}
		if (this.index < 0) {
			return ToolProgress.NONE;
		}
		ProgressTarget target = javaTarget(values);
		ToolProgress progress = (target != null) ? target.reporter() : ToolProgress.NONE;
		values[this.index] = progress;
		return progress;
	}

	/**
	 * Ends the progress a tool method was given, once the method has returned or thrown:
	 * the report still waiting for its interval's end is sent, before the call's result.
	 * @param progress what the method was given
	 */
	static void finish(ToolProgress progress) {
		if (progress instanceof ProgressTarget.Reporter reporter) {
			reporter.finish();
		}
	}

	/**
	 * The progress a call's tool method is given.
	 * @param invocation the call
	 * @return the reporter of the call's target, or {@link ToolProgress#NONE} when it has
	 * none
	 */
	static ToolProgress of(ToolInvocation invocation) {
		ProgressTarget target = invocation.attribute(ProgressTarget.ATTRIBUTE);
		return (target != null) ? target.reporter() : ToolProgress.NONE;
	}

}
