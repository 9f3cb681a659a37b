package dev.agentmiddleware.tool;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

import org.jspecify.annotations.Nullable;

/**
 * What a tool asks its client's model ({@link ToolClient#sample}): the conversation so
 * far (text messages of the user and the assistant), an optional system prompt and
 * temperature, and the most tokens to generate. <pre>{@code
 * SamplingResult reply = client.sample(SamplingRequest.of("Summarise in one line: " + text, 100));
 *
 * SamplingRequest request = SamplingRequest.builder()
 *     .systemPrompt("You classify support tickets")
 *     .user(ticket.text())
 *     .maxTokens(20)
 *     .build();
 * }</pre>
 *
 * @param messages the conversation, oldest first; not empty; unmodifiable
 * @param systemPrompt the system prompt the server asks for, or {@code null}; the client
 * may ignore it
 * @param maxTokens the most tokens to generate; positive
 * @param temperature the sampling temperature, or {@code null} for the client's choice
 * @param id the key of the request among the requests of its call, or {@code null} for
 * one the client assigns (the n-th request of its kind in the call). Used where a call
 * asks its client through MCP {@code input_required} (revision {@code 2026-07-28}): the
 * key of the request in {@code inputRequests}, and of its answer in the retry's
 * {@code inputResponses}; a tool sets it when its client expects a name, and keeps it
 * stable from one run of the call to the next. Ignored on {@code 2025-11-25}.
 */
public record SamplingRequest(List<Message> messages, @Nullable String systemPrompt, int maxTokens,
		@Nullable Double temperature, @Nullable String id) {

	/**
	 * Creates a request.
	 * @param messages the conversation, oldest first; not empty
	 * @param systemPrompt the system prompt, or {@code null}
	 * @param maxTokens the most tokens to generate; positive
	 * @param temperature the sampling temperature, or {@code null}
	 * @param id the request's key among the call's requests, or {@code null}
	 * @throws IllegalArgumentException without a message or a positive {@code maxTokens},
	 * or with a blank {@code id}
	 */
	public SamplingRequest {
		if (id != null && id.isBlank()) {
			throw new IllegalArgumentException("The id of a sampling request must not be blank");
		}
		messages = List.copyOf(messages);
		if (messages.isEmpty()) {
			throw new IllegalArgumentException("A sampling request needs at least one message");
		}
		if (maxTokens <= 0) {
			throw new IllegalArgumentException("maxTokens must be positive, was " + maxTokens);
		}
	}

	/**
	 * Creates a request without an id.
	 * @param messages the conversation, oldest first; not empty
	 * @param systemPrompt the system prompt, or {@code null}
	 * @param maxTokens the most tokens to generate; positive
	 * @param temperature the sampling temperature, or {@code null}
	 */
	public SamplingRequest(List<Message> messages, @Nullable String systemPrompt, int maxTokens,
			@Nullable Double temperature) {
		this(messages, systemPrompt, maxTokens, temperature, null);
	}

	/**
	 * A request of one user message.
	 * @param prompt the user's message
	 * @param maxTokens the most tokens to generate; positive
	 * @return the request
	 */
	public static SamplingRequest of(String prompt, int maxTokens) {
		return builder().user(prompt).maxTokens(maxTokens).build();
	}

	/**
	 * Starts a request.
	 * @return the builder
	 */
	public static Builder builder() {
		return new Builder();
	}

	@Override
	public String toString() {
		return "SamplingRequest[messages=" + this.messages.size() + ", maxTokens=" + this.maxTokens + "]";
	}

	/**
	 * One text message of the conversation.
	 *
	 * @param role who said it
	 * @param text what was said
	 */
	public record Message(Role role, String text) {

		/**
		 * Creates a message.
		 * @param role who said it
		 * @param text what was said
		 */
		public Message {
			Objects.requireNonNull(role, "role");
			Objects.requireNonNull(text, "text");
		}

	}

	/**
	 * Who said a message.
	 */
	public enum Role {

		/** The user. */
		USER,

		/** The model. */
		ASSISTANT

	}

	/**
	 * Builds a {@link SamplingRequest}; {@code maxTokens} is required.
	 */
	public static final class Builder {

		private final List<Message> messages = new ArrayList<>();

		private @Nullable String systemPrompt;

		private int maxTokens;

		private @Nullable Double temperature;

		private @Nullable String id;

		private Builder() {
		}

		/**
		 * Adds a message of the user.
		 * @param text the message
		 * @return this builder
		 */
		public Builder user(String text) {
			this.messages.add(new Message(Role.USER, text));
			return this;
		}

		/**
		 * Adds a message of the assistant.
		 * @param text the message
		 * @return this builder
		 */
		public Builder assistant(String text) {
			this.messages.add(new Message(Role.ASSISTANT, text));
			return this;
		}

		/**
		 * Sets the system prompt.
		 * @param systemPrompt the system prompt, or {@code null}
		 * @return this builder
		 */
		public Builder systemPrompt(@Nullable String systemPrompt) {
			this.systemPrompt = systemPrompt;
			return this;
		}

		/**
		 * Sets the most tokens to generate.
		 * @param maxTokens a positive number
		 * @return this builder
		 */
		public Builder maxTokens(int maxTokens) {
			this.maxTokens = maxTokens;
			return this;
		}

		/**
		 * Sets the sampling temperature.
		 * @param temperature the temperature, or {@code null} for the client's choice
		 * @return this builder
		 */
		public Builder temperature(@Nullable Double temperature) {
			this.temperature = temperature;
			return this;
		}

		/**
		 * Sets the request's key among the requests of its call (see
		 * {@link SamplingRequest#id()}).
		 * @param id the key, or {@code null} for one the client assigns
		 * @return this builder
		 */
		public Builder id(@Nullable String id) {
			this.id = id;
			return this;
		}

		/**
		 * Builds the request.
		 * @return the request
		 * @throws IllegalArgumentException without a message or a positive
		 * {@code maxTokens}
		 */
		public SamplingRequest build() {
			return new SamplingRequest(this.messages, this.systemPrompt, this.maxTokens, this.temperature, this.id);
		}

	}

}
