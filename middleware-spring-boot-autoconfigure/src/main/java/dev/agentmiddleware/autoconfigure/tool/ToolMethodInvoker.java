package dev.agentmiddleware.autoconfigure.tool;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.Arrays;
import java.util.Map;

import dev.agentmiddleware.chain.ToolMiddleware.ToolContractViolationException;
import dev.agentmiddleware.tool.ToolHandler;
import dev.agentmiddleware.tool.ToolInvocation;
import dev.agentmiddleware.tool.ToolProgress;

import org.jspecify.annotations.Nullable;

import org.springframework.util.ReflectionUtils;

/**
 * The end of an {@code @AgentTool} method's chain: calls the method on the bean with the
 * invocation's arguments, in parameter order, and rethrows the method's own exception
 * unchanged. A method that declares a {@link dev.agentmiddleware.tool.ToolProgress}
 * parameter is given the call's progress there ({@link ToolProgressParameter}), whose
 * report still waiting for its interval's end is sent when the method returns; one that
 * declares a {@link dev.agentmiddleware.tool.ToolClient} parameter is given the call's
 * client there.
 *
 * <p>
 * When the bean was already a Spring AOP proxy (for example for {@code @Transactional}),
 * our advisor joined that proxy; the invoker then calls the proxy so the other aspects
 * still run, and marks the call so that our advisor lets it through instead of running
 * the chain a second time.
 */
final class ToolMethodInvoker implements ToolHandler {

	private static final ThreadLocal<@Nullable Method> PASS_THROUGH = new ThreadLocal<>();

	// Whether any tool bean was already a proxy; until one is, no call can carry the
	// mark, and checking for it
	// (a thread-local read) is skipped.
	private static volatile boolean passThroughInUse;

	private final Object target;

	private final Method method;

	private final String[] parameterNames;

	private final boolean targetIsAdvised;

	private final ToolProgressParameter progress;

	ToolMethodInvoker(Object target, Method method, String[] parameterNames, boolean targetIsAdvised) {
		this.target = target;
		this.method = method;
		this.parameterNames = parameterNames;
		this.targetIsAdvised = targetIsAdvised;
		this.progress = ToolProgressParameter.of(method);
		if (targetIsAdvised) {
			passThroughInUse = true;
		}
		ReflectionUtils.makeAccessible(method);
	}

	/**
	 * Whether a call of {@code method} that reached our advisor comes from this invoker
	 * and must go straight on. Consumes the mark, so a nested call of another tool runs
	 * its own chain.
	 * @param method the method being called
	 * @return {@code true} to proceed without the chain
	 */
	static boolean consumePassThrough(Method method) {
		if (!passThroughInUse) {
			return false;
		}
		Method marked = PASS_THROUGH.get();
		if (marked != null && marked.equals(method)) {
			PASS_THROUGH.remove();
			return true;
		}
		return false;
	}

	@Override
	public @Nullable Object handle(ToolInvocation invocation) throws Exception {
		Map<String, @Nullable Object> arguments = invocation.arguments();
		Object[] values = new Object[this.parameterNames.length];
		for (int i = 0; i < values.length; i++) {
			values[i] = arguments.get(this.parameterNames[i]);
		}
		ToolProgress progress = ToolProgress.NONE;
		if (this.progress.isDeclared()) {
			progress = ToolProgressParameter.of(invocation);
			values = this.progress.methodValues(values, progress, ToolProgressParameter.client(invocation));
		}
		if (this.targetIsAdvised) {
			PASS_THROUGH.set(this.method);
		}
		try {
			return this.method.invoke(this.target, values);
		}
		catch (IllegalArgumentException ex) {
			// Thrown by reflection itself (the method's own exceptions arrive wrapped): a
			// middleware rewrote an
			// argument to a value of the wrong type.
			throw new ToolContractViolationException(invocation.toolName(), "chain",
					"the arguments that reached the tool do not match its parameters "
							+ Arrays.toString(this.parameterNames)
							+ "; a middleware rewrote an argument to a value of the wrong type");
		}
		catch (InvocationTargetException ex) {
			Throwable cause = ex.getCause();
			if (cause instanceof Exception exception) {
				throw exception;
			}
			if (cause instanceof Error error) {
				throw error;
			}
			throw ex;
		}
		finally {
			if (this.targetIsAdvised) {
				PASS_THROUGH.remove();
			}
			// The report still waiting for its interval's end goes out before the result
			ToolProgressParameter.finish(progress);
		}
	}

}
