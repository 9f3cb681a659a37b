package dev.agentmiddleware.autoconfigure.mcp;

import org.jspecify.annotations.Nullable;

import org.springframework.web.servlet.function.ServerResponse;

/**
 * What one of the transport's checks found: the value to go on with, or the response that
 * refuses the request. <pre>{@code
 * McpChecked<McpSchema.JSONRPCMessage> read = validator.read(request);
 * if (read.isRefused()) {
 *     return read.refusal();
 * }
 * McpSchema.JSONRPCMessage message = read.value();
 * }</pre>
 *
 * @param <T> the type of the value
 * @param value the value, {@code null} when refused
 * @param refusal the response refusing the request, {@code null} when it passed
 */
record McpChecked<T>(@Nullable T value, @Nullable ServerResponse refusal) {

	static <T> McpChecked<T> passed(T value) {
		return new McpChecked<>(value, null);
	}

	static <T> McpChecked<T> refused(ServerResponse refusal) {
		return new McpChecked<>(null, refusal);
	}

	boolean isRefused() {
		return this.refusal != null;
	}

}
