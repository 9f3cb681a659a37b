package dev.agentmiddleware.autoconfigure.tool;

import java.lang.reflect.Method;
import java.lang.reflect.Parameter;
import java.time.Clock;

import dev.agentmiddleware.tool.ToolProgress.ProgressTarget;
import dev.agentmiddleware.tool.ToolInvocation;
import dev.agentmiddleware.tool.ToolProgress;
import org.jspecify.annotations.Nullable;

import org.springframework.util.ClassUtils;

/**
 * The {@link ToolProgress} parameter of an {@code @AgentTool} method, if it declares one: not one of the tool's
 * arguments (not in its schema, not bound from JSON, not in a cache key or an approval), but given the progress of
 * each call: the reporter of the call's {@link ProgressTarget}, or {@link ToolProgress#NONE} when its caller asked
 * for none.
 *
 * @param index the parameter's position among the method's parameters, {@code -1} when it declares none
 */
record ToolProgressParameter(int index) {

	static final ToolProgressParameter NONE = new ToolProgressParameter(-1);

	/**
	 * The progress parameter of a tool method.
	 * @param method the method
	 * @return its progress parameter, {@link #NONE} when it declares none
	 * @throws IllegalStateException if it declares more than one
	 */
	static ToolProgressParameter of(Method method) {
		int found = -1;
		Parameter[] parameters = method.getParameters();
		for (int i = 0; i < parameters.length; i++) {
			if (is(parameters[i])) {
				if (found >= 0) {
					throw new IllegalStateException("Tool method " + ClassUtils.getQualifiedMethodName(method)
							+ " declares more than one ToolProgress parameter; declare one, which reports the progress "
							+ "of each call");
				}
				found = i;
			}
		}
		return (found >= 0) ? new ToolProgressParameter(found) : NONE;
	}

	/**
	 * Whether a method parameter is the progress of the call rather than one of the tool's arguments.
	 */
	static boolean is(Parameter parameter) {
		return parameter.getType() == ToolProgress.class;
	}

	boolean isDeclared() {
		return this.index >= 0;
	}

	/**
	 * What the method is given for a call: the tool's argument values with the call's progress in its place.
	 * @param arguments the argument values, in the order of the tool's arguments
	 * @param progress the call's progress
	 * @return the method's values; {@code arguments} itself when the method declares no progress
	 */
	@Nullable Object[] methodValues(@Nullable Object[] arguments, ToolProgress progress) {
		if (this.index < 0) {
			return arguments;
		}
		@Nullable Object[] values = new Object[arguments.length + 1];
		System.arraycopy(arguments, 0, values, 0, this.index);
		values[this.index] = progress;
		System.arraycopy(arguments, this.index, values, this.index + 1, arguments.length - this.index);
		return values;
	}

	/**
	 * The tool's argument values of a direct Java call of the method: its values without the progress.
	 * @param values the method's values
	 * @return the argument values; a copy of {@code values} when the method declares no progress
	 */
	@Nullable Object[] argumentValues(@Nullable Object[] values) {
		if (this.index < 0) {
			return values.clone();
		}
		@Nullable Object[] arguments = new Object[values.length - 1];
		System.arraycopy(values, 0, arguments, 0, this.index);
		System.arraycopy(values, this.index + 1, arguments, this.index, arguments.length - this.index);
		return arguments;
	}

	/**
	 * Where the progress of a direct Java call goes: to the {@code ToolProgress} its caller passed, at most once per
	 * {@link ProgressTarget#DEFAULT_INTERVAL}.
	 * @param values the method's values
	 * @return the target, or {@code null} when the caller passed none (or the method declares no progress)
	 */
	@Nullable ProgressTarget javaTarget(@Nullable Object[] values) {
		if (this.index < 0 || !(values[this.index] instanceof ToolProgress given) || !given.isReported()) {
			return null;
		}
		return ProgressTarget.of(given, ProgressTarget.DEFAULT_INTERVAL, Clock.systemUTC());
	}

	/**
	 * Gives a direct Java call that runs no middleware the progress it would get through its pipeline: a reporter of
	 * the {@code ToolProgress} its caller passed, {@link ToolProgress#NONE} for {@code null}.
	 * @param values the method's values, changed in place
	 * @return the progress given, to {@linkplain #finish(ToolProgress) finish} when the method returns
	 */
	ToolProgress bindJava(@Nullable Object[] values) {
		if (this.index < 0) {
			return ToolProgress.NONE;
		}
		ProgressTarget target = javaTarget(values);
		ToolProgress progress = (target != null) ? target.reporter() : ToolProgress.NONE;
		values[this.index] = progress;
		return progress;
	}

	/**
	 * Ends the progress a tool method was given, once the method has returned or thrown: the report still waiting
	 * for its interval's end is sent, before the call's result.
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
	 * @return the reporter of the call's target, or {@link ToolProgress#NONE} when it has none
	 */
	static ToolProgress of(ToolInvocation invocation) {
		ProgressTarget target = invocation.attribute(ProgressTarget.ATTRIBUTE);
		return (target != null) ? target.reporter() : ToolProgress.NONE;
	}

}
