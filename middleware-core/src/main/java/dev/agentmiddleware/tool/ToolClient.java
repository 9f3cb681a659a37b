package dev.agentmiddleware.tool;

import java.util.List;
import java.util.Objects;

import org.jspecify.annotations.Nullable;

/**
 * The client of one running tool call, for the tool to talk to: log to it, ask its user
 * for input ({@linkplain #elicit elicitation}), ask its model ({@linkplain #sample
 * sampling}) and ask for its {@linkplain #roots roots}. An MCP client that made the call
 * gets each request as its MCP message ({@code notifications/message},
 * {@code elicitation/create}, {@code sampling/createMessage}) on the call's response
 * stream; a call without an MCP client (a direct Java call, a Spring AI
 * {@code ChatClient}) gets a client that writes the log to the application log and cannot
 * elicit or sample.
 *
 * <p>
 * An {@code @AgentTool} method declares a parameter of this type to get the client of its
 * call, as it declares a {@link ToolProgress}: it is not one of the tool's arguments (not
 * in its input schema, not bound from JSON, not part of a cache key or an approval's
 * arguments): <pre>{@code
 * &#64;AgentTool(description = "Books a table", safety = SafetyLevel.MODERATE)
 * public String bookTable(String restaurant, ToolClient client) {
 *     client.log(ToolClient.Level.INFO, "looking for a table at " + restaurant);
 *     if (!client.canElicit()) {
 *         return "Tell me how many people and when";
 *     }
 *     ElicitationResult answer = client.elicit(ElicitationRequest.builder("How many people, and when?")
 *         .integer("people", "People", 2)
 *         .choice("time", "Time", List.of("19:00", "20:00", "21:00"), "20:00")
 *         .required("people", "time")
 *         .build());
 *     if (!answer.isAccepted()) {
 *         return "Not booked: the user " + answer.action().name().toLowerCase(Locale.ROOT);
 *     }
 *     return bookings.book(restaurant, answer.content());
 * }
 * }</pre> A Java caller of such a method passes {@code null} (the application log, no
 * elicitation or sampling) or its own {@code ToolClient}.
 *
 * <p>
 * <b>Contract.</b> {@link #log} never throws because sending failed and never blocks for
 * long: a message below the level the client asked for ({@code logging/setLevel}) is
 * dropped. {@link #elicit} and {@link #sample} block until the client answers: they throw
 * a {@link ToolClientUnavailableException}, naming what the client lacks, when the client
 * cannot serve the request (it did not declare the capability, or there is no MCP
 * client), and a {@link java.util.concurrent.CancellationException} as soon as the call
 * is cancelled (its client cancelled it, or its timeout interrupted the tool) while they
 * wait. Each request is logged, observed and audited with the call (the tool, the kind of
 * request, its outcome, as a {@link ClientRequest}; never the content of the question or
 * the answer). These requests serve the tool only: an answer to a tool's elicitation
 * never decides an approval of a call, which the chain asks for before the tool runs, in
 * a request of its own. Thread-safe, but the client of a call is meant for the thread
 * that runs the tool.
 */
public interface ToolClient {

	/**
	 * The attribute under which a call carries the client that made it, set by the layer
	 * that accepts the call.
	 */
	InvocationAttribute<ToolClient> ATTRIBUTE = InvocationAttribute.of("client", ToolClient.class);

	/**
	 * Logs a message to the client, if it asked for messages of this level.
	 * @param level the message's level
	 * @param message the message, for a person; never a secret
	 */
	void log(Level level, String message);

	/**
	 * Whether the client can {@linkplain #elicit answer an elicitation}: an MCP client
	 * that declared the elicitation capability (form mode).
	 * @return {@code true} if {@link #elicit} may be called
	 */
	boolean canElicit();

	/**
	 * Asks the client's user to fill in a form, and waits for the answer.
	 * @param request the question and the form's schema
	 * @return the user's answer: accepted with the form's content, declined or cancelled
	 * @throws ToolClientUnavailableException if the client cannot answer an elicitation
	 * @throws java.util.concurrent.CancellationException if the call is cancelled while
	 * it waits
	 */
	ElicitationResult elicit(ElicitationRequest request);

	/**
	 * Whether the client can {@linkplain #sample sample its model}: an MCP client that
	 * declared the sampling capability.
	 * @return {@code true} if {@link #sample} may be called
	 */
	boolean canSample();

	/**
	 * Asks the client's model for a message, and waits for it; the client may show the
	 * request to its user first.
	 * @param request the messages and the limits
	 * @return the model's message
	 * @throws ToolClientUnavailableException if the client cannot sample
	 * @throws java.util.concurrent.CancellationException if the call is cancelled while
	 * it waits
	 */
	SamplingResult sample(SamplingRequest request);

	/**
	 * Whether the client can {@linkplain #roots list its roots}: an MCP client that
	 * declared the roots capability.
	 * @return {@code true} if {@link #roots} may be called
	 */
	default boolean canListRoots() {
		return false;
	}

	/**
	 * Asks the client for its roots (MCP {@code roots/list}): the directories or files
	 * the client lets the server work on, and waits for them.
	 * @return the roots, in the client's order
	 * @throws ToolClientUnavailableException if the client cannot list roots (the
	 * default)
	 * @throws java.util.concurrent.CancellationException if the call is cancelled while
	 * it waits
	 */
	default List<Root> roots() {
		throw new ToolClientUnavailableException("(unknown)", "roots", "the client does not list roots");
	}

	/**
	 * The client of a call that no MCP client made: the log goes to the application log
	 * (logger {@code dev.agentmiddleware.tool.ToolClient}, each message prefixed with the
	 * tool's name), and {@link #elicit} and {@link #sample} throw a
	 * {@link ToolClientUnavailableException}.
	 * @param toolName the tool whose call it is
	 * @return the client
	 */
	static ToolClient applicationLog(String toolName) {
		return new ApplicationLogToolClient(toolName);
	}

	/**
	 * A root of the client ({@link #roots}).
	 *
	 * @param uri the root's URI, such as {@code file:///home/user/project}
	 * @param name its name, or {@code null}
	 */
	record Root(String uri, @Nullable String name) {

		/**
		 * Creates a root.
		 * @param uri the root's URI
		 * @param name its name, or {@code null}
		 */
		public Root {
			Objects.requireNonNull(uri, "uri");
		}

	}

	/**
	 * The level of a message logged to the client, those of MCP (the levels of syslog,
	 * RFC 5424), from the least severe.
	 */
	enum Level {

		/** Detailed information for debugging. */
		DEBUG,

		/** What the tool is doing. */
		INFO,

		/** A normal but significant event. */
		NOTICE,

		/** Something that may need attention. */
		WARNING,

		/** A failure. */
		ERROR,

		/** A critical condition. */
		CRITICAL,

		/** Action must be taken at once. */
		ALERT,

		/** The system is unusable. */
		EMERGENCY

	}

}
