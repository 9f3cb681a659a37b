package dev.agentmiddleware.autoconfigure.mcp;

import java.io.IOException;
import java.util.concurrent.locks.ReentrantLock;

import dev.agentmiddleware.chain.CallCancellation;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.web.servlet.function.ServerResponse;

/**
 * The response stream of one {@code 2026-07-28} request: its notifications (progress, log
 * messages the request asked for) and then its response, each an SSE event. The revision
 * has no {@code notifications/cancelled}: a client cancels its request by closing this
 * stream, so a stream found closed (a write or a keep-alive comment fails, the container
 * reports an error) cancels the call through the chain ({@link CallCancellation}), and
 * nothing more is written.
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
	 * Commits the response, so that the client sees the stream open before the call
	 * reports anything.
	 */
	void open() {
		this.lock.lock();
		try {
			if (!this.closed) {
				this.sse.comment("stream open").send();
			}
		}
		catch (IOException | RuntimeException ex) {
			logger.debug("MCP client went away before its stream opened: {}", ex.getClass().getSimpleName());
			this.closed = true;
		}
		finally {
			this.lock.unlock();
		}
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

}
