package dev.agentmiddleware.tool;

import java.util.Map;
import java.util.Objects;
import java.util.function.Supplier;

import org.jspecify.annotations.Nullable;

/**
 * The arguments of a call as a model or an MCP client sent them, not yet bound to the
 * tool's parameters. A call that carries them under {@link #ATTRIBUTE} is bound inside
 * its pipeline, by the argument-binding step
 * ({@code dev.agentmiddleware.chain.ArgumentBindingMiddleware}), so that a call refused
 * for its arguments is still observed, counted and logged like any other. Binding makes a
 * new invocation, which the running {@code dev.agentmiddleware.chain.ToolCall} keeps, so
 * that the observer tier and the outer layers are told of the call's end with the bound
 * arguments; this object and the invocation carrying it never change. <pre>{@code
 * ToolInvocation call = ToolInvocation.builder(tool.descriptor())
 *     .attribute(UnboundArguments.ATTRIBUTE, UnboundArguments.of(json, () -> binder.bind(json)))
 *     .source(InvocationSource.MCP)
 *     .build();
 * pipeline.call(call);   // binds, then runs the layers inside the binding step and the tool
 * }</pre>
 *
 * <p>
 * <b>Arguments as sent.</b> Unbound arguments created with {@link #of(Object, Supplier)}
 * also carry the arguments as the caller sent them (the JSON text, or the map of JSON
 * values of an MCP request), which promises that binding is a function of them alone:
 * equal arguments as sent bind to equal values, or fail alike, whenever and by whomever
 * they are bound. The result cache then answers a repeated call from them without binding
 * it again (see {@code dev.agentmiddleware.cache.CacheMiddleware}). A binder that also
 * checks anything that can change (Bean Validation constraints such as {@code @Future},
 * or a lookup) must not make that promise: use the constructor.
 */
public final class UnboundArguments {

	/** The attribute under which a call carries its unbound arguments. */
	public static final InvocationAttribute<UnboundArguments> ATTRIBUTE = InvocationAttribute.of("arguments.unbound",
			UnboundArguments.class);

	private final @Nullable Object asSent;

	private final Supplier<Map<String, @Nullable Object>> binder;

	/**
	 * Creates the unbound arguments of one call, without the arguments as sent: the call
	 * is bound every time.
	 * @param binder binds the arguments as sent to the tool's parameter types and checks
	 * their constraints, throwing an
	 * {@link dev.agentmiddleware.binding.InvalidToolArgumentsException} naming the tool,
	 * the parameter and what was expected
	 */
	public UnboundArguments(Supplier<Map<String, @Nullable Object>> binder) {
		this(null, binder);
	}

	private UnboundArguments(@Nullable Object asSent, Supplier<Map<String, @Nullable Object>> binder) {
		this.asSent = asSent;
		this.binder = Objects.requireNonNull(binder, "binder");
	}

	/**
	 * Creates the unbound arguments of one call whose binding is a function of the
	 * arguments as sent alone (see the class description). <pre>{@code
	 * UnboundArguments.of(json, () -> binder.bind(json))
	 * }</pre>
	 * @param asSent the arguments as the caller sent them: the JSON text, or a map of
	 * JSON values (strings, numbers, booleans, {@code null}, lists and maps of them);
	 * compared with {@code equals}, and not changed afterwards
	 * @param binder binds exactly {@code asSent}, as for
	 * {@link #UnboundArguments(Supplier)}
	 * @return the unbound arguments
	 */
	public static UnboundArguments of(Object asSent, Supplier<Map<String, @Nullable Object>> binder) {
		return new UnboundArguments(Objects.requireNonNull(asSent, "asSent"), binder);
	}

	/**
	 * The arguments as the caller sent them, if they were given with
	 * {@link #of(Object, Supplier)}.
	 * @return the JSON text or the map of JSON values, or {@code null}
	 */
	public @Nullable Object asSent() {
		return this.asSent;
	}

	/**
	 * Binds the arguments; the pipeline's binding step calls it once per call.
	 * @return the bound arguments by parameter name, in declaration order
	 * @throws dev.agentmiddleware.binding.InvalidToolArgumentsException if the arguments
	 * cannot be bound
	 */
	public Map<String, @Nullable Object> bind() {
		return Objects.requireNonNull(this.binder.get(), "bound arguments");
	}

}
