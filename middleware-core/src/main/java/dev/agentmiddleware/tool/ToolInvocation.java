package dev.agentmiddleware.tool;

import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

import org.jspecify.annotations.Nullable;

/**
 * One call of a tool: the tool, its bound arguments and who is calling. Immutable; the
 * {@code with…} methods return changed copies, which is how a middleware rewrites a call
 * for the layers inside it. <pre>{@code
 * ToolInvocation call = ToolInvocation.builder(weatherTool)
 *     .argument("city", "Lisbon")
 *     .sessionId("conversation-42")
 *     .source(InvocationSource.SPRING_AI)
 *     .build();
 * ToolInvocation metric = call.withArgument("units", "metric");
 * }</pre>
 *
 * <p>
 * Arguments are the tool method's parameter values by parameter name, in declaration
 * order, already bound to their Java types; a value may be {@code null} for an optional
 * parameter.
 */
public final class ToolInvocation {

	private final ToolDescriptor tool;

	private final Map<String, @Nullable Object> arguments;

	private final @Nullable String sessionId;

	private final @Nullable ToolPrincipal principal;

	private volatile @Nullable String callId;

	private final long callNumber;

	private final InvocationSource source;

	private final Map<InvocationAttribute<?>, Object> attributes;

	private final @Nullable String toolCallId;

	private ToolInvocation(ToolDescriptor tool, Map<String, @Nullable Object> arguments, @Nullable String sessionId,
			@Nullable ToolPrincipal principal, @Nullable String callId, long callNumber, InvocationSource source,
			Map<InvocationAttribute<?>, Object> attributes, @Nullable String toolCallId) {
		this.toolCallId = toolCallId;
		this.tool = tool;
		this.arguments = arguments;
		this.sessionId = sessionId;
		this.principal = principal;
		this.callId = callId;
		this.callNumber = callNumber;
		this.source = source;
		this.attributes = attributes;
	}

	/**
	 * Starts a call of the tool, from {@link InvocationSource#JAVA}, with a fresh call
	 * id.
	 * @param tool the tool being called
	 * @return a builder
	 */
	public static Builder builder(ToolDescriptor tool) {
		return new Builder(tool);
	}

	/**
	 * The tool being called.
	 * @return the descriptor
	 */
	public ToolDescriptor tool() {
		return this.tool;
	}

	/**
	 * The tool's name; a shortcut for {@code tool().name()}.
	 * @return the tool name
	 */
	public String toolName() {
		return this.tool.name();
	}

	/**
	 * The arguments this invocation holds, never anything else: the bound ones, in
	 * declaration order, for a call from Java and for every call inside the binding step;
	 * for a call still carrying {@link UnboundArguments}, the values as sent, or none
	 * (binding makes a new invocation, {@link #withBoundArguments()}).
	 * @return an unmodifiable map; values may be {@code null}
	 */
	public Map<String, @Nullable Object> arguments() {
		return this.arguments;
	}

	/**
	 * One bound argument.
	 * @param name the parameter name
	 * @return its value, or {@code null} if absent or null
	 */
	public @Nullable Object argument(String name) {
		return arguments().get(name);
	}

	/**
	 * The session (conversation, thread or MCP session) the call belongs to.
	 * @return the session id, or {@code null} when the caller has none
	 */
	public @Nullable String sessionId() {
		return this.sessionId;
	}

	/**
	 * The authenticated principal on whose behalf the call runs: its name and
	 * authorities.
	 * @return the principal, or {@code null} when the caller is anonymous or unknown
	 */
	public @Nullable ToolPrincipal principal() {
		return this.principal;
	}

	/**
	 * The name of the authenticated principal on whose behalf the call runs; a shortcut
	 * for {@code principal().name()}.
	 * @return the principal's name, or {@code null} when the caller is anonymous or
	 * unknown
	 */
	public @Nullable String principalName() {
		return (this.principal != null) ? this.principal.name() : null;
	}

	/**
	 * An id unique to this call within the running JVM, for correlating logs and
	 * approvals.
	 * @return the call id
	 */
	public String callId() {
		String callId = this.callId;
		if (callId == null) {
			callId = CallIds.format(this.callNumber);
			this.callId = callId;
		}
		return callId;
	}

	/**
	 * The id the model gave this tool call in its reply (such as {@code call_abc123}),
	 * which joins the call's result to the call; unlike {@link #callId()} unique only
	 * within the reply.
	 * @return the model's tool-call id, or {@code null} when the call is no model's tool
	 * call (Java, MCP)
	 */
	public @Nullable String toolCallId() {
		return this.toolCallId;
	}

	/**
	 * Where the call came from.
	 * @return the source
	 */
	public InvocationSource source() {
		return this.source;
	}

	/**
	 * A typed attribute.
	 * @param key the key
	 * @param <T> the value type
	 * @return the value, or {@code null} if the call carries none
	 */
	public <T> @Nullable T attribute(InvocationAttribute<T> key) {
		Object value = this.attributes.get(key);
		return (value != null) ? key.cast(value) : null;
	}

	/**
	 * A copy with all arguments replaced.
	 * @param arguments the new arguments by parameter name
	 * @return the changed copy
	 */
	public ToolInvocation withArguments(Map<String, ? extends @Nullable Object> arguments) {
		return new ToolInvocation(this.tool, ToolArguments.frozenCopy(arguments), this.sessionId, this.principal,
				this.callId, this.callNumber, this.source, this.attributes, this.toolCallId);
	}

	/**
	 * The copy of a call that carries {@link UnboundArguments}, with the arguments they
	 * bound to and without them; used by the pipeline's argument-binding step. This call
	 * is left as it is.
	 * @return the bound copy, or this call when it carries no unbound arguments
	 * @throws dev.agentmiddleware.binding.InvalidToolArgumentsException if the arguments
	 * cannot be bound
	 */
	public ToolInvocation withBoundArguments() {
		UnboundArguments unbound = this.attributes.isEmpty() ? null : attribute(UnboundArguments.ATTRIBUTE);
		return (unbound != null) ? withBoundArguments(unbound.bind()) : this;
	}

	/**
	 * The copy of a call that carries {@link UnboundArguments}, with what an earlier
	 * binding of the same arguments as sent gave and without them: for the cache, which
	 * answers a repeated call before binding it.
	 * @param bound the bound arguments
	 * @return the bound copy
	 */
	public ToolInvocation withBoundArguments(Map<String, ? extends @Nullable Object> bound) {
		return new ToolInvocation(this.tool, ToolArguments.frozenCopy(bound), this.sessionId, this.principal,
				this.callId, this.callNumber, this.source,
				InvocationAttributes.without(this.attributes, UnboundArguments.ATTRIBUTE), this.toolCallId);
	}

	/**
	 * A copy with one argument set or replaced.
	 * @param name the parameter name
	 * @param value the new value
	 * @return the changed copy
	 */
	public ToolInvocation withArgument(String name, @Nullable Object value) {
		Map<String, @Nullable Object> changed = new LinkedHashMap<>(arguments());
		changed.put(Objects.requireNonNull(name, "name"), value);
		return new ToolInvocation(this.tool, Collections.unmodifiableMap(changed), this.sessionId, this.principal,
				this.callId, this.callNumber, this.source, this.attributes, this.toolCallId);
	}

	/**
	 * A copy with an attribute set or replaced.
	 * @param key the key
	 * @param value the value
	 * @param <T> the value type
	 * @return the changed copy
	 */
	public <T> ToolInvocation withAttribute(InvocationAttribute<T> key, T value) {
		return new ToolInvocation(this.tool, this.arguments, this.sessionId, this.principal, this.callId,
				this.callNumber, this.source, InvocationAttributes.with(this.attributes, key, value), this.toolCallId);
	}

	/**
	 * A copy with another session id.
	 * @param sessionId the session id, or {@code null} for none
	 * @return the changed copy
	 */
	public ToolInvocation withSessionId(@Nullable String sessionId) {
		return new ToolInvocation(this.tool, this.arguments, sessionId, this.principal, this.callId, this.callNumber,
				this.source, this.attributes, this.toolCallId);
	}

	@Override
	public String toString() {
		return "ToolInvocation[tool=" + this.tool.name() + ", callId=" + this.callId + ", source=" + this.source
				+ ", session=" + this.sessionId + ((this.toolCallId != null) ? ", toolCallId=" + this.toolCallId : "")
				+ ", arguments=" + this.arguments.keySet() + "]";
	}

	/**
	 * Builds a {@link ToolInvocation}.
	 */
	public static final class Builder {

		private final ToolDescriptor tool;

		private @Nullable Map<String, @Nullable Object> arguments;

		private @Nullable ToolArguments adopted;

		private @Nullable String sessionId;

		private @Nullable ToolPrincipal principal;

		private @Nullable String callId;

		private InvocationSource source = InvocationSource.JAVA;

		private @Nullable String toolCallId;

		private @Nullable Map<InvocationAttribute<?>, Object> attributes;

		private Builder(ToolDescriptor tool) {
			this.tool = Objects.requireNonNull(tool, "tool");
		}

		/**
		 * Adds all arguments, in the map's order.
		 * @param arguments the arguments by parameter name
		 * @return this builder
		 */
		public Builder arguments(Map<String, ? extends @Nullable Object> arguments) {
			if (arguments instanceof ToolArguments immutable && this.arguments == null && this.adopted == null) {
				this.adopted = immutable;
			}
			else {
				mutableArguments().putAll(arguments);
			}
			return this;
		}

		/**
		 * Adds one argument.
		 * @param name the parameter name
		 * @param value the bound value
		 * @return this builder
		 */
		public Builder argument(String name, @Nullable Object value) {
			mutableArguments().put(Objects.requireNonNull(name, "name"), value);
			return this;
		}

		private Map<String, @Nullable Object> mutableArguments() {
			Map<String, @Nullable Object> arguments = this.arguments;
			if (arguments == null) {
				arguments = new LinkedHashMap<>();
				if (this.adopted != null) {
					arguments.putAll(this.adopted);
					this.adopted = null;
				}
				this.arguments = arguments;
			}
			return arguments;
		}

		/**
		 * Sets the session id.
		 * @param sessionId the session id, or {@code null}
		 * @return this builder
		 */
		public Builder sessionId(@Nullable String sessionId) {
			this.sessionId = sessionId;
			return this;
		}

		/**
		 * Sets the principal: who the call runs for.
		 * @param principal the principal, or {@code null} for an anonymous caller
		 * @return this builder
		 */
		public Builder principal(@Nullable ToolPrincipal principal) {
			this.principal = principal;
			return this;
		}

		/**
		 * Sets a principal known by name only, without authorities.
		 * @param principalName the principal's name, or {@code null} for an anonymous
		 * caller
		 * @return this builder
		 */
		public Builder principal(@Nullable String principalName) {
			this.principal = (principalName != null) ? ToolPrincipal.of(principalName) : null;
			return this;
		}

		/**
		 * Sets the call id (default: a fresh id unique within this JVM).
		 * @param callId the call id
		 * @return this builder
		 */
		public Builder callId(String callId) {
			this.callId = Objects.requireNonNull(callId, "callId");
			return this;
		}

		/**
		 * Sets the id the model gave this tool call in its reply (see
		 * {@link ToolInvocation#toolCallId()}).
		 * @param toolCallId the model's tool-call id, or {@code null} for none
		 * @return this builder
		 */
		public Builder toolCallId(@Nullable String toolCallId) {
			this.toolCallId = toolCallId;
			return this;
		}

		/**
		 * Sets the source (default {@link InvocationSource#JAVA}).
		 * @param source where the call came from
		 * @return this builder
		 */
		public Builder source(InvocationSource source) {
			this.source = Objects.requireNonNull(source, "source");
			return this;
		}

		/**
		 * Sets an attribute.
		 * @param key the key
		 * @param value the value
		 * @param <T> the value type
		 * @return this builder
		 */
		public <T> Builder attribute(InvocationAttribute<T> key, T value) {
			if (this.attributes == null) {
				this.attributes = new HashMap<>(4);
			}
			this.attributes.put(Objects.requireNonNull(key, "key"), key.type().cast(Objects.requireNonNull(value)));
			return this;
		}

		/**
		 * Builds the invocation.
		 * @return the immutable invocation
		 */
		public ToolInvocation build() {
			Map<InvocationAttribute<?>, Object> attributes = InvocationAttributes.frozen(this.attributes);
			Map<String, @Nullable Object> arguments = (this.adopted != null) ? this.adopted
					: (this.arguments != null) ? ToolArguments.frozenCopy(this.arguments) : ToolArguments.empty();
			long callNumber = (this.callId != null) ? 0 : CallIds.next();
			return new ToolInvocation(this.tool, arguments, this.sessionId, this.principal, this.callId, callNumber,
					this.source, attributes, this.toolCallId);
		}

	}

}
