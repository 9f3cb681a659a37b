package dev.agentmiddleware.autoconfigure.mcp;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.BiConsumer;

import dev.agentmiddleware.chain.CallCancellation;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.Cookie;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.MediaType;
import org.springframework.util.MultiValueMap;
import org.springframework.web.servlet.ModelAndView;
import org.springframework.web.servlet.function.ServerResponse;

/**
 * The response stream of one {@code 2026-07-28} request: its notifications (progress, log
 * messages the request asked for) and then its response, each an SSE event. The revision
 * has no {@code notifications/cancelled}: a client cancels its request by closing this
 * stream, so a stream found closed (a write or a keep-alive comment fails, the container
 * reports an error) cancels the call through the chain ({@link CallCancellation}), and
 * nothing more is written. The response is committed by the first write (a message or a
 * keep-alive comment): until then the request may still be {@linkplain #refuse refused}
 * with a plain JSON answer and an HTTP status.
 */
final class StatelessMcpStream {

	// The transport's log category, which operators configure for all of it
	private static final Logger logger = LoggerFactory.getLogger(HardenedStreamableHttpTransport.class);

	private static final String GONE = "the client closed the response stream";

	private final ServerResponse.SseBuilder sse;

	private final CallCancellation cancellation;

	private final ReentrantLock lock = new ReentrantLock();

	private volatile boolean closed;

	private volatile boolean abandoned;

	// Whether something was written: the response is an SSE stream from then on
	private volatile boolean committed;

	private long lastEvent;

	StatelessMcpStream(ServerResponse.SseBuilder sse, CallCancellation cancellation) {
		this.sse = sse;
		this.cancellation = cancellation;
		sse.onError((ex) -> {
			logger.debug("MCP client closed its response stream: {}", ex.getClass().getSimpleName());
			gone();
		});
		sse.onTimeout(this::close);
	}

	/**
	 * Writes one message; a client gone cancels the call.
	 * @param json the message, as JSON
	 */
	void send(String json) {
		boolean failed = false;
		this.lock.lock();
		try {
			if (this.closed) {
				return;
			}
			this.committed = true;
			this.sse.id(Long.toString(++this.lastEvent)).event("message").data(json);
		}
		catch (IOException | RuntimeException ex) {
			logger.debug("MCP client closed its response stream before a message was sent: {}",
					ex.getClass().getSimpleName());
			failed = true;
		}
		finally {
			this.lock.unlock();
		}
		if (failed) {
			gone();
		}
	}

	/**
	 * Writes a keep-alive comment: the only way to learn, while a call runs, that its
	 * client closed the stream.
	 */
	void ping() {
		if (!this.lock.tryLock()) {
			return;
		}
		boolean failed = false;
		try {
			if (!this.closed) {
				this.committed = true;
				this.sse.comment("keep-alive").send();
			}
		}
		catch (IOException | RuntimeException ex) {
			failed = true;
		}
		finally {
			this.lock.unlock();
		}
		if (failed) {
			gone();
		}
	}

	/**
	 * Answers the request with one JSON message and a status instead of a stream, if
	 * nothing was written on the stream yet; the stream is closed then.
	 * @param response the HTTP response of the request
	 * @param status the HTTP status
	 * @param json the message, as JSON
	 * @return whether the request was answered so; {@code false} when the stream has
	 * started (or ended), and the message belongs on it
	 */
	boolean refuse(HttpServletResponse response, int status, String json) {
		this.lock.lock();
		try {
			if (this.closed || this.committed || response.isCommitted()) {
				return false;
			}
			this.committed = true;
			byte[] body = json.getBytes(StandardCharsets.UTF_8);
			response.setStatus(status);
			response.setContentType(MediaType.APPLICATION_JSON_VALUE);
			response.setContentLength(body.length);
			response.getOutputStream().write(body);
			response.flushBuffer();
		}
		catch (IOException | RuntimeException ex) {
			logger.debug("MCP client went away before its answer was written: {}", ex.getClass().getSimpleName());
		}
		finally {
			this.lock.unlock();
		}
		close();
		return true;
	}

	boolean isClosed() {
		return this.closed;
	}

	// Whether the client went away before the stream ended
	boolean isAbandoned() {
		return this.abandoned;
	}

	// The client went away: nothing more is written, and the call is cancelled
	private void gone() {
		this.abandoned = true;
		close();
		this.cancellation.cancel(GONE);
	}

	/**
	 * The response of a request answered on a stream of its own: an SSE stream, whose
	 * consumer gets the HTTP response as well, to {@linkplain #refuse refuse} the request
	 * while nothing was written.
	 * @param consumer writes the stream
	 * @return the response
	 */
	static ServerResponse sse(BiConsumer<ServerResponse.SseBuilder, HttpServletResponse> consumer) {
		return new Response(consumer);
	}

	void close() {
		this.lock.lock();
		try {
			if (this.closed) {
				return;
			}
			this.closed = true;
			this.sse.complete();
		}
		catch (RuntimeException ex) {
			logger.debug("Completing an MCP stream failed: {}", ex.getClass().getSimpleName());
		}
		finally {
			this.lock.unlock();
		}
	}

	private static final class Response implements ServerResponse {

		private final BiConsumer<ServerResponse.SseBuilder, HttpServletResponse> consumer;

		// What an SSE response says of itself before it is written
		private final ServerResponse template = ServerResponse.sse((sse) -> {
		}, Duration.ZERO);

		Response(BiConsumer<ServerResponse.SseBuilder, HttpServletResponse> consumer) {
			this.consumer = consumer;
		}

		@Override
		public HttpStatusCode statusCode() {
			return this.template.statusCode();
		}

		@Override
		public HttpHeaders headers() {
			return this.template.headers();
		}

		@Override
		public MultiValueMap<String, Cookie> cookies() {
			return this.template.cookies();
		}

		@Override
		public ModelAndView writeTo(HttpServletRequest request, HttpServletResponse response, Context context)
				throws ServletException, IOException {
			return ServerResponse.sse((sse) -> this.consumer.accept(sse, response), Duration.ZERO)
				.writeTo(request, response, context);
		}

	}

}
