package dev.agentmiddleware.autoconfigure.mcp;

import java.io.IOException;
import java.time.Duration;
import java.util.function.BiConsumer;

import jakarta.servlet.ServletException;
import jakarta.servlet.http.Cookie;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpServletResponseWrapper;
import org.jspecify.annotations.Nullable;

import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatusCode;
import org.springframework.util.MultiValueMap;
import org.springframework.web.servlet.ModelAndView;
import org.springframework.web.servlet.function.ServerResponse;

/**
 * The server-sent-events response of a request whose stream may hold its priming event
 * back: the priming event is written into the response's buffer without being sent, and
 * goes out with whatever the stream sends next, in the same write. A call answered at
 * once sends its priming event and its answer together; a call still running when the
 * hold ends ({@link McpHeldPrimings}) gets its priming event sent alone. Either way the
 * client reads the same events in the same order; only the writes differ. <pre>{@code
 * return PrimingHoldingResponse.sse((sse, connection) -> {
 *     McpSseStream stream = live.open(sse, jsonMapper, cancellation, request);
 *     stream.prime(retry, connection);
 *     // ... the call, whose answer sends the priming event with it
 * });
 * }</pre>
 */
final class PrimingHoldingResponse implements ServerResponse {

	private final ServerResponse sse;

	// The response being written, once the container writes it
	private @Nullable Connection connection;

	private PrimingHoldingResponse(BiConsumer<ServerResponse.SseBuilder, Connection> consumer) {
		this.sse = ServerResponse.sse((builder) -> consumer.accept(builder, connection()), Duration.ZERO);
	}

	/**
	 * A server-sent-events response without timeout, whose consumer is also given the
	 * connection that can hold a priming event back.
	 * @param consumer writes the stream, as {@link ServerResponse#sse} would call it
	 * @return the response
	 */
	static ServerResponse sse(BiConsumer<ServerResponse.SseBuilder, Connection> consumer) {
		return new PrimingHoldingResponse(consumer);
	}

	private Connection connection() {
		Connection connection = this.connection;
		if (connection == null) {
			throw new IllegalStateException("The response is not being written");
		}
		return connection;
	}

	@Override
	public HttpStatusCode statusCode() {
		return this.sse.statusCode();
	}

	@Override
	public HttpHeaders headers() {
		return this.sse.headers();
	}

	@Override
	public MultiValueMap<String, Cookie> cookies() {
		return this.sse.cookies();
	}

	@Override
	public @Nullable ModelAndView writeTo(HttpServletRequest request, HttpServletResponse response, Context context)
			throws ServletException, IOException {
		Connection connection = new Connection(response);
		this.connection = connection;
		return this.sse.writeTo(request, connection, context);
	}

	/**
	 * The servlet response of one stream, which can leave the flush of what was just
	 * written to the next flush. Not thread-safe: the stream's lock guards it as it
	 * guards every write.
	 */
	static final class Connection extends HttpServletResponseWrapper {

		// Set for the next flush only
		private boolean holdNext;

		// Whether a flush was held back and nothing has been flushed since
		private boolean holding;

		Connection(HttpServletResponse response) {
			super(response);
		}

		/**
		 * Leaves the next flush, and what was written before it, for the flush after it.
		 */
		void holdNextFlush() {
			this.holdNext = true;
		}

		/**
		 * Whether a flush was held back and nothing was flushed since.
		 * @return whether written bytes wait in the response's buffer
		 */
		boolean isHolding() {
			return this.holding;
		}

		@Override
		public void flushBuffer() throws IOException {
			if (this.holdNext) {
				this.holdNext = false;
				this.holding = true;
				return;
			}
			this.holding = false;
			super.flushBuffer();
		}

	}

}
