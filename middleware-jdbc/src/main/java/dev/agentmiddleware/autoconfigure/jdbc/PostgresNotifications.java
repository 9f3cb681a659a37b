package dev.agentmiddleware.autoconfigure.jdbc;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;

import javax.sql.DataSource;

import org.jspecify.annotations.Nullable;
import org.postgresql.PGConnection;
import org.postgresql.PGNotification;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Listens on a PostgreSQL channel with a connection of its own, on a daemon thread, and
 * runs a callback on every notification; reconnects after a failure. Kept apart so that
 * the PostgreSQL driver is loaded only on PostgreSQL. Shared by the stores that wake on
 * {@code NOTIFY}: approval decisions, and cache invalidations across instances.
 * <pre>{@code
 * AutoCloseable listening = PostgresNotifications.listen(dataSource, "agent_cache_invalidation",
 *         "cache invalidations", this::poll);
 * }</pre>
 */
public final class PostgresNotifications implements AutoCloseable, Runnable {

	private static final Logger logger = LoggerFactory.getLogger(PostgresNotifications.class);

	private static final int WAIT_MILLIS = 1000;

	private final DataSource dataSource;

	private final String channel;

	private final Runnable onNotification;

	private final String purpose;

	private final Thread thread;

	private volatile boolean running = true;

	private volatile @Nullable Connection connection;

	private PostgresNotifications(DataSource dataSource, String channel, String purpose, String threadName,
			Runnable onNotification) {
		this.dataSource = dataSource;
		this.channel = channel;
		this.purpose = purpose;
		this.onNotification = onNotification;
		this.thread = new Thread(this, threadName);
		this.thread.setDaemon(true);
	}

	static PostgresNotifications listen(DataSource dataSource, String channel, Runnable onNotification) {
		return start(new PostgresNotifications(dataSource, channel, "approval decisions", "agent-approval-listen",
				onNotification));
	}

	/**
	 * Starts listening on a channel.
	 * @param dataSource a PostgreSQL database; one of its connections is held while
	 * listening
	 * @param channel the channel, a plain SQL identifier
	 * @param purpose what the notifications announce, for the log line when listening
	 * fails
	 * @param onNotification run on the listening thread after one or more notifications
	 * @return the listener; close it to stop
	 */
	public static PostgresNotifications listen(DataSource dataSource, String channel, String purpose,
			Runnable onNotification) {
		return start(
				new PostgresNotifications(dataSource, channel, purpose, "agent-listen-" + channel, onNotification));
	}

	private static PostgresNotifications start(PostgresNotifications notifications) {
		notifications.thread.start();
		return notifications;
	}

	@Override
	public void run() {
		while (this.running) {
			try (Connection connection = this.dataSource.getConnection()) {
				this.connection = connection;
				try (Statement statement = connection.createStatement()) {
					statement.execute("LISTEN " + this.channel);
				}
				// What was announced before LISTEN took effect (at start, or while
				// reconnecting) is read now.
				this.onNotification.run();
				PGConnection pg = connection.unwrap(PGConnection.class);
				while (this.running) {
					PGNotification[] received = pg.getNotifications(WAIT_MILLIS);
					if (received != null && received.length > 0) {
						this.onNotification.run();
					}
				}
			}
			catch (SQLException ex) {
				if (this.running) {
					logger.warn("Listening for {} on PostgreSQL failed ({}); polling until reconnected", this.purpose,
							ex.getMessage());
					pause();
				}
			}
		}
	}

	private void pause() {
		try {
			Thread.sleep(WAIT_MILLIS);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			this.running = false;
		}
	}

	@Override
	public void close() {
		this.running = false;
		this.thread.interrupt();
	}

}
