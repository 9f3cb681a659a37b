package dev.agentmiddleware.autoconfigure.mcp;

import java.io.IOException;
import java.util.ArrayDeque;
import java.util.HexFormat;
import java.util.concurrent.ThreadLocalRandom;

import org.springframework.web.servlet.function.ServerResponse;

/**
 * The events of one {@link McpSseStream}, for a client that resumes the stream with
 * {@code Last-Event-ID}: each event is numbered in its stream and written with an id
 * ({@code <stream>-<n>}, unique within the session; the priming event is number 0), and
 * the last {@value #REPLAY_EVENTS} are kept to be written again on the connection of a
 * client that resumes. Not thread-safe: its stream uses it under the stream's lock, but
 * for {@link #isStreamOf} and {@link #number}, which read only the stream's id.
 */
final class McpSseEvents {

	/**
	 * How many of its last events a stream keeps to replay to a client that resumes it.
	 */
	static final int REPLAY_EVENTS = 100;

	private static final String MESSAGE_EVENT = "message";

	// Names the stream in its event ids, so that a Last-Event-ID finds it among the
	// session's streams
	private final String streamId = HexFormat.of().toHexDigits(ThreadLocalRandom.current().nextLong());

	// The number of the last event written (the priming event is number 0); under the
	// lock
	private long lastEvent;

	// The last events written, oldest first, for a client that resumes the stream; under
	// the lock
	private final ArrayDeque<Event> replay = new ArrayDeque<>();

	// Under the lock: numbers the event, keeps it for a client that resumes, and sends it
	void emit(ServerResponse.SseBuilder connection, String data) throws IOException {
		Event event = new Event(++this.lastEvent, data);
		if (this.replay.size() == REPLAY_EVENTS) {
			this.replay.removeFirst();
		}
		this.replay.addLast(event);
		send(connection, event);
	}

	private void send(ServerResponse.SseBuilder connection, Event event) throws IOException {
		connection.id(eventId(event.number())).event(MESSAGE_EVENT).data(event.data());
	}

	String eventId(long number) {
		return this.streamId + "-" + number;
	}

	// The stream an event id names, as the client sent it in Last-Event-ID
	boolean isStreamOf(String eventId) {
		return eventId.startsWith(this.streamId + "-");
	}

	// The number of the event an id of this stream names
	long number(String eventId) {
		return Long.parseLong(eventId.substring(this.streamId.length() + 1));
	}

	// Under the lock: whether every event after that number is still kept
	boolean keepsAfter(long after) {
		long oldest = this.replay.isEmpty() ? this.lastEvent + 1 : this.replay.peekFirst().number();
		return !(after < 0 || after > this.lastEvent || after + 1 < oldest);
	}

	// Under the lock: writes the events after that number again on a connection; whether
	// none was
	boolean replayAfter(ServerResponse.SseBuilder connection, long after) throws IOException {
		for (Event event : this.replay) {
			if (event.number() > after) {
				send(connection, event);
			}
		}
		return this.replay.isEmpty() || this.lastEvent == after;
	}

	// An event written on the stream, kept for a client that resumes it
	private record Event(long number, String data) {
	}

}
