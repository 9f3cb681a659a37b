package dev.agentmiddleware.autoconfigure.mcp;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.function.Consumer;

import javax.sql.DataSource;

import org.postgresql.PGConnection;
import org.postgresql.PGNotification;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Hears the ends of MCP sessions on PostgreSQL: {@code LISTEN}s, on one connection of the
 * pool held for as long as it runs, on the channel that the trigger of table
 * {@value JdbcMcpSessionRegistry#TABLE} notifies with the digest of every deleted row
 * ({@code agent_mcp_session_} and the MD5 of the table's schema, so that schemas sharing
 * a database do not hear each other), on one daemon thread. Kept apart so that the
 * PostgreSQL driver is loaded only on PostgreSQL.
 *
 * <p>
 * It is healthy while it listens and a probe ({@code SELECT 1} on its connection) has
 * succeeded within the last three probe intervals. Each {@code LISTEN} has a number of
 * its own ({@link #healthyListen()}): what was checked against the table while an earlier
 * one was current may have missed a notification. A failure is logged once as a WARN, the
 * recovery as an INFO, and it retries with a backoff doubling up to a maximum.
 * <pre>{@code
 * PostgresMcpSessionEnds ends = PostgresMcpSessionEnds.start(dataSource, Duration.ofSeconds(5),
 *         Duration.ofSeconds(30), digest -> dropCopy(digest));
 * }</pre>
 */
final class PostgresMcpSessionEnds implements Runnable {

	/** The name of the listening thread. */
	static final String THREAD_NAME = "agent-mcp-session-ends";

	// The transport's log category, which operators configure for all of it
	private static final Logger logger = LoggerFactory.getLogger(HardenedStreamableHttpTransport.class);

	// The longest wait for a notification, so that a stop is seen soon
	private static final long MAX_WAIT_MILLIS = 1000;

	private static final long FIRST_BACKOFF_MILLIS = 100;

	private final DataSource dataSource;

	private final long probeNanos;

	private final long maxBackoffMillis;

	private final Consumer<String> onEnded;

	private final Thread thread;

	private final Object pause = new Object();

	private volatile boolean running = true;

	// The number of the current LISTEN, 0 while not listening
	private volatile long listen;

	// When the connection was last confirmed alive (System.nanoTime)
	private volatile long confirmed;

	private volatile int backendPid;

	// Written by the listening thread only
	private long listens;

	private PostgresMcpSessionEnds(DataSource dataSource, Duration probeInterval, Duration maxBackoff,
			Consumer<String> onEnded) {
		this.dataSource = dataSource;
		this.probeNanos = probeInterval.toNanos();
		this.maxBackoffMillis = Math.max(maxBackoff.toMillis(), 1);
		this.onEnded = onEnded;
		this.thread = new Thread(this, THREAD_NAME);
		this.thread.setDaemon(true);
	}

	/**
	 * Starts listening.
	 * @param dataSource the sessions' PostgreSQL database; one of its connections is held
	 * while listening
	 * @param probeInterval how often the connection is probed; it is unhealthy when no
	 * probe has succeeded for three intervals
	 * @param maxBackoff the longest wait between two attempts to listen again
	 * @param onEnded told the digest of every deleted row, on the listening thread
	 * @return the listener; {@link #stop()} it
	 */
	static PostgresMcpSessionEnds start(DataSource dataSource, Duration probeInterval, Duration maxBackoff,
			Consumer<String> onEnded) {
		PostgresMcpSessionEnds ends = new PostgresMcpSessionEnds(dataSource, probeInterval, maxBackoff, onEnded);
		ends.thread.start();
		return ends;
	}

	/**
	 * The number of the current {@code LISTEN} if it is healthy now: listening, and its
	 * connection confirmed alive within three probe intervals.
	 * @return a positive number, the same while the same {@code LISTEN} lasts, or 0 when
	 * unhealthy
	 */
	long healthyListen() {
		long current = this.listen;
		if (current != 0 && System.nanoTime() - this.confirmed <= 3 * this.probeNanos) {
			return current;
		}
		return 0;
	}

	// The server process of the listening connection, for tests
	int backendPid() {
		return this.backendPid;
	}

	/**
	 * Stops listening and gives the connection back to the pool (within about a second).
	 */
	void stop() {
		this.running = false;
		this.listen = 0;
		synchronized (this.pause) {
			this.pause.notifyAll();
		}
		try {
			this.thread.join(2 * MAX_WAIT_MILLIS);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

	boolean isStopped() {
		return !this.running;
	}

	@Override
	public void run() {
		boolean failing = false;
		long backoff = FIRST_BACKOFF_MILLIS;
		while (this.running) {
			try (Connection connection = this.dataSource.getConnection()) {
				listen(connection, failing);
			}
			catch (SQLException | RuntimeException ex) {
				this.listen = 0;
				if (!this.running) {
					break;
				}
				if (!failing) {
					// Never the message: it may name the database's address or user
					logger.warn(
							"Listening for the ends of MCP sessions on PostgreSQL failed ({}{}); every request"
									+ " reads its session's row until it listens again",
							ex.getClass().getSimpleName(), (ex instanceof SQLException sql && sql.getSQLState() != null)
									? ", SQL state " + sql.getSQLState() : "");
					failing = true;
				}
				pause(backoff);
				backoff = Math.min(backoff * 2, this.maxBackoffMillis);
				continue;
			}
			failing = false;
			backoff = FIRST_BACKOFF_MILLIS;
		}
		this.listen = 0;
	}

	private void listen(Connection connection, boolean recovering) throws SQLException {
		PGConnection pg = connection.unwrap(PGConnection.class);
		connection.setAutoCommit(true);
		try (Statement statement = connection.createStatement()) {
			String channel;
			try (ResultSet result = statement.executeQuery("SELECT 'agent_mcp_session_' || md5(current_schema())")) {
				result.next();
				channel = result.getString(1);
			}
			// Lower-case letters, digits and underscores: quoted as they are
			statement.execute("LISTEN \"" + channel + "\"");
			try {
				this.backendPid = pg.getBackendPID();
				this.confirmed = System.nanoTime();
				this.listen = ++this.listens;
				if (recovering) {
					logger.info("Listening for the ends of MCP sessions on PostgreSQL again");
				}
				long probed = System.nanoTime();
				long wait = Math.max(1, Math.min(MAX_WAIT_MILLIS, this.probeNanos / 1_000_000));
				statement.setQueryTimeout((int) Math.max(1, Duration.ofNanos(this.probeNanos).toSeconds()));
				while (this.running) {
					PGNotification[] received = pg.getNotifications((int) wait);
					if (received != null) {
						for (PGNotification notification : received) {
							this.onEnded.accept(notification.getParameter());
						}
					}
					if (System.nanoTime() - probed >= this.probeNanos) {
						statement.execute("SELECT 1");
						probed = System.nanoTime();
						this.confirmed = probed;
					}
				}
			}
			finally {
				this.listen = 0;
				// A connection back in the pool listens no more, nor keeps what it heard
				try {
					statement.execute("UNLISTEN *");
					pg.getNotifications();
				}
				catch (SQLException ex) {
					// Broken: the pool discards it
				}
			}
		}
	}

	private void pause(long millis) {
		long deadline = System.nanoTime() + millis * 1_000_000;
		synchronized (this.pause) {
			long left;
			while (this.running && (left = deadline - System.nanoTime()) > 0) {
				try {
					this.pause.wait(Math.max(1, left / 1_000_000));
				}
				catch (InterruptedException ex) {
					Thread.currentThread().interrupt();
					this.running = false;
				}
			}
		}
	}

}
