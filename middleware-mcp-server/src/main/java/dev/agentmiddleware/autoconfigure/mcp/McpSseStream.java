package dev.agentmiddleware.autoconfigure.mcp;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;

import dev.agentmiddleware.chain.CallCancellation;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.json.TypeRef;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpStreamableServerTransport;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Mono;

import org.springframework.web.servlet.function.ServerResponse;

/**
 * One server-sent-events response of a session: a request's answer or the session's
 * listening stream. It holds the {@link CallCancellation} of its request, so that a
 * client found gone ({@linkplain #abandon(String) abandoned}: the container reports an
 * error, a {@linkplain #ping() keep-alive} comment or a message cannot be written) or a
 * client's {@code notifications/cancelled} ({@link #cancel(String)}) cancels the call
 * still running for it through the chain, with a signal rather than a thread interrupt.
 * Messages are written one at a time, errors the SDK built
 * {@linkplain JsonRpcErrors#bounded bounded}; nothing is written once the stream is
 * closed or its request cancelled, so a cancelled request gets no response, and its
 * stream ends only once the call is cancelled. When the server stops
 * ({@link #abandonAtShutdown(String)}), a request not yet answered is answered that its
 * call was abandoned. A request the server sent its client on the stream (a tool's
 * elicitation or sampling) and no longer waits for is {@linkplain #withdraw withdrawn}
 * with a {@code notifications/cancelled} naming it ({@link McpServerRequests},
 * {@link McpSsePendingRequests}).
 * <p>
 * Every message is an event with an id ({@code <stream>-<n>}, unique within the session),
 * kept in a replay buffer of the last {@value McpSseEvents#REPLAY_EVENTS} events
 * ({@link McpSseEvents}); a stream of a session that negotiated {@code 2025-11-25} or
 * later starts with a priming event (an id and empty data) and a {@code retry:} field
 * (SEP-1699); a request's stream may hold it back until its first message, for a short
 * while at most ({@link #prime}, {@link McpHeldPrimings}). A client whose connection
 * broke while the stream is still open (its call still running) reconnects with
 * {@code GET} and {@code Last-Event-ID} ({@link #resume}): it gets the events after that
 * id, and the rest of the stream, on the new connection. <pre>{@code
 * McpSseStream stream = live.open(sse, jsonMapper, cancellation, request);
 * live.session().responseStream(request, stream).block();
 * stream.close();
 * }</pre>
 */
final class McpSseStream implements McpStreamableServerTransport {

	// The transport's log category, which operators configure for all of it
	private static final Logger logger = LoggerFactory.getLogger(HardenedStreamableHttpTransport.class);

	private static final String GONE = "the client went away";

	// How long a withdrawal sent on the session's listening stream may take
	private static final Duration WITHDRAWAL = Duration.ofSeconds(5);

	// How long the call's thread waits, at most, for the shutdown to answer its request
	// before ending the stream
	private static final Duration ANSWER_AT_SHUTDOWN = Duration.ofSeconds(5);

	// The connection the stream writes to: the first one, or the one of the client's last
	// resume; under the lock
	private volatile ServerResponse.SseBuilder sse;

	// Its events, numbered and kept for a client that resumes the stream; under the lock
	private final McpSseEvents events = new McpSseEvents();

	// Set once a client resumed the stream on another connection
	private volatile boolean resumed;

	// The connection that holds the priming event back until the stream's next message;
	// under the lock
	private PrimingHoldingResponse.@Nullable Connection heldPriming;

	private final McpLiveSession owner;

	private final McpJsonMapper jsonMapper;

	private final ReentrantLock lock = new ReentrantLock();

	private volatile boolean closed;

	// Set by a cancellation before the call is cancelled: no message is written from then
	// on
	private boolean muted;

	private volatile @Nullable Runnable onCompleted;

	// Cancels the call running for this stream's request
	private final CallCancellation cancellation;

	private volatile boolean abandoned;

	// The request this stream answers, null for the session's listening stream
	private final McpSchema.@Nullable JSONRPCRequest request;

	// Set once the request's response was written
	private boolean answered;

	// The server's requests written on this stream and not yet answered; under the lock
	private final McpSsePendingRequests serverRequests;

	// Set while the answer at shutdown is being given: a close from the call's own thread
	// (its call ended, cancelled)
	// waits for it, so that the stream cannot end between the cancellation and the answer
	private volatile @Nullable CountDownLatch answeringAtShutdown;

	McpSseStream(ServerResponse.SseBuilder sse, McpLiveSession owner, McpJsonMapper jsonMapper,
			CallCancellation cancellation, McpSchema.@Nullable JSONRPCRequest request) {
		this.sse = sse;
		this.owner = owner;
		this.jsonMapper = jsonMapper;
		this.cancellation = cancellation;
		this.request = request;
		this.serverRequests = new McpSsePendingRequests(jsonMapper);
		this.sse = sse;
		connect(sse);
	}

	// Only the stream's current connection speaks for it: one it left for a resumed
	// connection ends on its own
	private void connect(ServerResponse.SseBuilder connection) {
		connection.onError((ex) -> {
			if (connection == this.sse) {
				logger.debug("MCP client disconnected: {}", ex.getClass().getSimpleName());
				abandon(GONE);
			}
		});
		connection.onTimeout(() -> {
			if (connection == this.sse) {
				close();
			}
		});
		connection.onComplete(() -> {
			if (connection == this.sse) {
				completed();
			}
		});
	}

	void onCompleted(Runnable action) {
		this.onCompleted = action;
	}

	private void completed() {
		this.owner.ended(this);
		Runnable action = this.onCompleted;
		if (action != null) {
			action.run();
		}
	}

	@Override
	public Mono<Void> sendMessage(McpSchema.JSONRPCMessage message) {
		return sendMessage(message, null);
	}

	@Override
	public Mono<Void> sendMessage(McpSchema.JSONRPCMessage message, @Nullable String messageId) {
		return Mono.fromRunnable(() -> {
			boolean gone = false;
			this.lock.lock();
			try {
				if (this.closed || this.muted) {
					return;
				}
				write(message, messageId);
			}
			catch (IOException | UncheckedIOException ex) {
				logger.debug("MCP client disconnected before a message was sent: {}", ex.getClass().getSimpleName());
				gone = true;
			}
			catch (RuntimeException ex) {
				logger.warn("MCP transport failed to send a message: {}", ex.getClass().getSimpleName());
				closeQuietly();
			}
			finally {
				this.lock.unlock();
			}
			if (gone) {
				// As when a keep-alive comment finds the client gone: the call is
				// cancelled and the request completed
				abandon(GONE);
			}
		});
	}

	// Under the lock, on an open stream; the SDK's own event ids are not used: each event
	// is numbered in its stream
	private void write(McpSchema.JSONRPCMessage message, @Nullable String messageId) throws IOException {
		if (message instanceof McpSchema.JSONRPCRequest request && request.params() != null) {
			McpSchema.JSONRPCMessage shown = this.serverRequests.sending(request);
			if (shown == null) {
				return;
			}
			message = shown;
		}
		if (message instanceof McpSchema.JSONRPCResponse) {
			// The call ends: a request it made that its client has not answered is
			// withdrawn first, whichever thread would have withdrawn it (the tool's,
			// still on its way after a timeout)
			this.serverRequests.withdrawPending(this::emit);
			this.answered = true;
		}
		emit(this.jsonMapper.writeValueAsString(JsonRpcErrors.bounded(message)));
	}

	// Under the lock: the event written on the stream's connection, kept for a client
	// that resumes
	private void emit(String data) throws IOException {
		this.events.emit(this.sse, data);
	}

	// The stream an event id names, as the client sent it in Last-Event-ID
	boolean isStreamOf(String eventId) {
		return this.events.isStreamOf(eventId);
	}

	/**
	 * Writes the priming event of SEP-1699 (an id and empty data) with the {@code retry:}
	 * field, first on the stream: a client that loses the connection from now on knows
	 * where to resume and how long to wait.
	 * @param retry how long the client waits before it reconnects, zero to send no
	 * {@code retry:}
	 * @param holdBack the stream's connection, to leave the priming event in its buffer
	 * until the stream's next message sends it along ({@link #sendHeldPriming()} sends it
	 * alone); {@code null} to send it at once
	 */
	void prime(Duration retry, PrimingHoldingResponse.@Nullable Connection holdBack) {
		this.lock.lock();
		try {
			if (!this.closed) {
				ServerResponse.SseBuilder event = this.sse.id(this.events.eventId(0));
				if (!retry.isZero()) {
					event.retry(retry);
				}
				if (holdBack != null) {
					holdBack.holdNextFlush();
					this.heldPriming = holdBack;
				}
				event.data("");
			}
		}
		catch (IOException | RuntimeException ex) {
			logger.debug("MCP client disconnected before its stream opened: {}", ex.getClass().getSimpleName());
			closeQuietly();
		}
		finally {
			this.lock.unlock();
		}
	}

	/**
	 * Sends the priming event the stream holds back, unless a message sent it already or
	 * the stream ended.
	 * @return {@code false} when the stream was busy writing, so that nothing was done
	 */
	boolean sendHeldPriming() {
		return tryWrite(() -> {
			PrimingHoldingResponse.Connection held = this.heldPriming;
			this.heldPriming = null;
			if (held != null && held.isHolding()) {
				held.flushBuffer();
			}
		});
	}

	/**
	 * Moves the stream to the connection of a client that reconnected with
	 * {@code Last-Event-ID}: the events after it are written there, and so is the rest of
	 * the stream; the previous connection is completed.
	 * @param connection the new connection
	 * @param lastEventId the id of the last event the client received, one of this
	 * stream's
	 * @return whether the stream was resumed; {@code false} when it has ended or the id
	 * is not one of its events still in the replay buffer
	 */
	boolean resume(ServerResponse.SseBuilder connection, String lastEventId) {
		long after;
		try {
			after = this.events.number(lastEventId);
		}
		catch (NumberFormatException | IndexOutOfBoundsException ex) {
			return false;
		}
		boolean gone = false;
		this.lock.lock();
		try {
			if (this.closed || this.muted || !this.events.keepsAfter(after)) {
				return false;
			}
			ServerResponse.SseBuilder previous = this.sse;
			this.sse = connection;
			this.resumed = true;
			// Completing the previous connection sends what it held
			this.heldPriming = null;
			connect(connection);
			completeQuietly(previous);
			if (this.events.replayAfter(connection, after)) {
				// Commits the response, so the client sees the stream open before the
				// next message
				connection.comment("stream resumed").send();
			}
		}
		catch (IOException | RuntimeException ex) {
			logger.debug("MCP client disconnected while its stream resumed: {}", ex.getClass().getSimpleName());
			gone = true;
		}
		finally {
			this.lock.unlock();
		}
		if (gone) {
			abandon(GONE);
		}
		return true;
	}

	// Whether a client resumed the stream on another connection than the one it started
	// on
	boolean isResumed() {
		return this.resumed;
	}

	boolean isClosed() {
		return this.closed;
	}

	// Whether this is the session's listening stream (the client's GET), still open
	boolean isListening() {
		return this.request == null && !this.closed;
	}

	boolean isAbandoned() {
		return this.abandoned;
	}

	// The client went away, or the server is stopping: the stream ends, and the call
	// still running for it is
	// cancelled (its tool's thread is interrupted only where the tool allows it)
	void abandon(String reason) {
		this.lock.lock();
		try {
			this.abandoned = true;
			closeQuietly();
		}
		finally {
			this.lock.unlock();
		}
		this.cancellation.cancel(reason);
	}

	// The server is stopping: a request not yet answered is answered here, saying that
	// its call was abandoned and
	// whether its tool started, since its client would otherwise wait out its own
	// timeout. Nothing the call writes
	// from now on reaches the client; the call is cancelled first, so that a tool that
	// had not started never starts
	// and the answer tells the truth; then the answer is written and the stream ends.
	void abandonAtShutdown(String reason) {
		boolean unanswered;
		CountDownLatch answering = null;
		this.lock.lock();
		try {
			unanswered = this.request != null && !this.closed && !this.muted && !this.answered;
			this.muted = true;
			this.abandoned = true;
			if (unanswered) {
				answering = new CountDownLatch(1);
				this.answeringAtShutdown = answering;
			}
		}
		finally {
			this.lock.unlock();
		}
		try {
			this.cancellation.cancel(reason);
			this.lock.lock();
			try {
				if (unanswered && !this.closed) {
					write(JsonRpcErrors.abandonedAtShutdown(this.request, this.cancellation.toolStarted()), null);
				}
			}
			catch (IOException | RuntimeException ex) {
				logger.debug("MCP client gone before its request was answered at shutdown: {}",
						ex.getClass().getSimpleName());
			}
			finally {
				closeQuietly();
				this.lock.unlock();
			}
		}
		finally {
			if (answering != null) {
				answering.countDown();
			}
		}
	}

	// The call's thread ends its request (its call returned, cancelled by the shutdown)
	// while the shutdown answers it:
	// the stream ends only once the answer is written, so that the request cannot be
	// completed without it. Bounded,
	// and deaf to the interrupt the cancellation gave the call's thread (kept for the
	// thread's later checks).
	private void awaitAnswerAtShutdown() {
		CountDownLatch answering = this.answeringAtShutdown;
		if (answering == null || this.lock.isHeldByCurrentThread()) {
			return;
		}
		boolean interrupted = Thread.interrupted();
		long deadline = System.nanoTime() + ANSWER_AT_SHUTDOWN.toNanos();
		try {
			while (true) {
				try {
					long left = deadline - System.nanoTime();
					if (left <= 0 || answering.await(left, TimeUnit.NANOSECONDS)) {
						return;
					}
				}
				catch (InterruptedException ex) {
					interrupted = true;
				}
			}
		}
		finally {
			if (interrupted) {
				Thread.currentThread().interrupt();
			}
		}
	}

	// The client cancelled the request: nothing more is written, so that the request gets
	// no response; then the call
	// is cancelled (a pending approval is withdrawn on this thread), and only then does
	// the stream end, so that a
	// client that sees its stream end finds the request withdrawn
	boolean cancel(String reason) {
		this.lock.lock();
		try {
			this.muted = true;
		}
		finally {
			this.lock.unlock();
		}
		try {
			return this.cancellation.cancel(reason);
		}
		finally {
			close();
		}
	}

	/**
	 * Withdraws a request the server sent on this stream, or was about to send, and no
	 * longer waits for: a {@code notifications/cancelled} naming its id goes to the
	 * client, on this stream while it is open, on the session's listening stream once
	 * this one ended (its client cancelled the call, whose tool made the request). A
	 * request not written yet is never written.
	 * @param params the request's params, as the MCP SDK was given them
	 * ({@link McpSchema#METHOD_ROOTS_LIST} for a {@code roots/list})
	 * @param reason why, for the client
	 * @return whether the notification was sent
	 */
	boolean withdraw(Object params, String reason) {
		Map<String, Object> cancelled = new LinkedHashMap<>();
		boolean gone = false;
		this.lock.lock();
		try {
			Object id = this.serverRequests.withdraw(params);
			if (id == null) {
				return false;
			}
			cancelled.put("requestId", id);
			cancelled.put("reason", reason);
			if (!this.closed && !this.muted) {
				write(new McpSchema.JSONRPCNotification(McpSchema.JSONRPC_VERSION, McpSsePendingRequests.CANCELLED,
						cancelled), null);
				return true;
			}
		}
		catch (IOException | UncheckedIOException ex) {
			logger.debug("MCP client disconnected before a request was withdrawn: {}", ex.getClass().getSimpleName());
			gone = true;
		}
		finally {
			this.lock.unlock();
		}
		if (gone) {
			abandon(GONE);
			return false;
		}
		try {
			this.owner.session().sendNotification(McpSsePendingRequests.CANCELLED, cancelled).block(WITHDRAWAL);
			return true;
		}
		catch (RuntimeException ex) {
			// No listening stream: the client learns nothing more of the request
			logger.debug("MCP request withdrawn without telling the client: {}", ex.getClass().getSimpleName());
			return false;
		}
	}

	// The client answered a request the server sent on this stream (or it failed)
	void forget(Object params) {
		this.lock.lock();
		try {
			this.serverRequests.forget(params);
		}
		finally {
			this.lock.unlock();
		}
	}

	// Writes a keep-alive comment: the only way to learn that a client went away while
	// its call is still running,
	// since nothing else is written to the stream until the call ends
	void ping() {
		tryWrite(() -> this.sse.comment("keep-alive").send());
	}

	// Writes on the open stream unless another thread is writing on it (false then, and
	// nothing is written); a client found gone ends the stream and cancels its call
	private boolean tryWrite(StreamWrite write) {
		if (!this.lock.tryLock()) {
			return false;
		}
		boolean gone = false;
		try {
			if (!this.closed) {
				write.run();
			}
		}
		catch (IOException | RuntimeException ex) {
			logger.debug("MCP client disconnected: {}", ex.getClass().getSimpleName());
			gone = true;
		}
		finally {
			this.lock.unlock();
		}
		if (gone) {
			abandon(GONE);
		}
		return true;
	}

	// A write on the stream, under its lock
	@FunctionalInterface
	private interface StreamWrite {

		void run() throws IOException;

	}

	// Commits the response, so the client sees the stream open before the first message
	void open() {
		this.lock.lock();
		try {
			if (!this.closed) {
				this.sse.comment("stream open").send();
			}
		}
		catch (IOException | RuntimeException ex) {
			logger.debug("MCP client disconnected before its stream opened: {}", ex.getClass().getSimpleName());
			closeQuietly();
		}
		finally {
			this.lock.unlock();
		}
	}

	@Override
	public <T> T unmarshalFrom(Object data, TypeRef<T> typeRef) {
		return this.jsonMapper.convertValue(data, typeRef);
	}

	@Override
	public Mono<Void> closeGracefully() {
		return Mono.fromRunnable(this::close);
	}

	@Override
	public void close() {
		awaitAnswerAtShutdown();
		this.lock.lock();
		try {
			closeQuietly();
		}
		finally {
			this.lock.unlock();
		}
	}

	private void closeQuietly() {
		if (this.closed) {
			return;
		}
		this.closed = true;
		this.owner.ended(this);
		completeQuietly(this.sse);
	}

	private static void completeQuietly(ServerResponse.SseBuilder connection) {
		try {
			connection.complete();
		}
		catch (RuntimeException ex) {
			logger.debug("Completing an MCP stream failed: {}", ex.getClass().getSimpleName());
		}
	}

}
