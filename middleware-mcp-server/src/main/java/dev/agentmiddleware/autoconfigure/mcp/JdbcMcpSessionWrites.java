package dev.agentmiddleware.autoconfigure.mcp;

import java.sql.PreparedStatement;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

import org.jspecify.annotations.Nullable;

import org.springframework.jdbc.core.ArgumentPreparedStatementSetter;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The starts and ends of {@link JdbcMcpSessionRegistry}'s sessions, each written in
 * groups ({@link GroupCommit}): the starts that an instance's requests ask for while a
 * start is being written go to the database together, in one statement and one
 * transaction that takes the cap's lock once, and so do the ends. A start alone is
 * written at once, as before; under load an instance holds the lock of the starts once
 * per group instead of once per start, and uses one connection for its starts and one for
 * its ends instead of one per waiting request.
 *
 * <p>
 * The cap stays exact: a group's statement counts the live rows after the lock is granted
 * and inserts only as many of its rows as there are free slots, the first ones asked
 * ({@code INSERT ... SELECT ... FROM (VALUES (..., 1), (..., 2), ...) WHERE n <= max -
 * (SELECT COUNT(*) ...)}); the starts of the group past them are refused, as each would
 * have been alone. A row is live when its last use is at or after the group's earliest
 * {@code liveSince}, so a group counts at least the rows each of its starts would have.
 * Ends delete their rows with one {@code DELETE ... WHERE id IN (...)}, a synchronous
 * commit for the group.
 */
final class JdbcMcpSessionWrites {

	/** The most starts, and the most ends, that one statement writes. */
	static final int MAX_GROUP = 64;

	private static final String COLUMNS = "id, owner_name, protocol_version, initialize_request, created_at, last_used";

	private final JdbcTemplate jdbc;

	private final TransactionTemplate transactions;

	private final String startLock;

	// PostgreSQL: the lock, the setting and the insert in one message
	private final boolean pipelined;

	private final int maxSessions;

	private final GroupCommit<Start, Boolean> starts = new GroupCommit<>(MAX_GROUP, this::insertUnderCap);

	private final GroupCommit<String, Boolean> ends = new GroupCommit<>(MAX_GROUP, this::delete);

	// The statements by group size, made once
	private final String[] inserts = new String[MAX_GROUP + 1];

	private final String[] deletes = new String[MAX_GROUP + 1];

	JdbcMcpSessionWrites(JdbcTemplate jdbc, TransactionTemplate transactions, String startLock, boolean pipelined,
			int maxSessions) {
		this.jdbc = jdbc;
		this.transactions = transactions;
		this.startLock = startLock;
		this.pipelined = pipelined;
		this.maxSessions = maxSessions;
	}

	/**
	 * Inserts a session's row unless the cap is reached.
	 * @param start the row, and from when a row counts as live
	 * @return whether the row was inserted
	 */
	boolean start(Start start) {
		return Boolean.TRUE.equals(this.starts.write(start));
	}

	/**
	 * Deletes a session's row, if there is one.
	 * @param key the digest of the session's id
	 */
	void end(String key) {
		this.ends.write(key);
	}

	/** The starts asked for and not yet taken by a write. */
	int startsWaiting() {
		return this.starts.waiting();
	}

	// Under the lock, so after every other instance's start has committed or rolled back:
	// the count sees their rows
	private List<Boolean> insertUnderCap(List<Start> group) {
		String insert = insert(group.size());
		Object[] arguments = new Object[group.size() * 6 + 2];
		long liveSince = Long.MAX_VALUE;
		int i = 0;
		for (Start start : group) {
			arguments[i++] = start.key();
			arguments[i++] = start.owner();
			arguments[i++] = start.protocolVersion();
			arguments[i++] = start.initializeRequest();
			arguments[i++] = start.now();
			arguments[i++] = start.now();
			liveSince = Math.min(liveSince, start.liveSince());
		}
		arguments[i++] = this.maxSessions;
		arguments[i] = liveSince;
		int inserted = this.pipelined ? insertPipelined(insert, arguments) : insertInTransaction(insert, arguments);
		List<Boolean> results = new ArrayList<>(group.size());
		for (int n = 0; n < group.size(); n++) {
			// The statement inserts the first rows of the group, as many as were free
			results.add(n < inserted);
		}
		return results;
	}

	// Every statement in one message to the database, one implicit transaction on the
	// pool's autocommit connection (as every other statement here): the lock is held
	// while
	// PostgreSQL inserts and commits, never while a reply travels to this instance and
	// back. Each statement of a READ COMMITTED transaction reads a snapshot of its own,
	// so
	// the count, taken after the lock, sees every start before it. The commit does not
	// wait for the WAL flush (set_config(..., true) lasts until the end of this
	// transaction only, SET LOCAL without the warning PostgreSQL gives outside an
	// explicit
	// block): the lock is released once the rows are inserted, not after an fsync. Only
	// durability is deferred; the count and the rows' visibility are as before.
	private int insertPipelined(String insert, Object[] arguments) {
		Integer inserted = this.jdbc.execute(
				this.startLock + "; " + JdbcMcpSessionRegistry.ASYNCHRONOUS_COMMIT + "; " + insert,
				(PreparedStatement statement) -> {
					new ArgumentPreparedStatementSetter(arguments).setValues(statement);
					boolean resultSet = statement.execute();
					// The lock's row, the setting's row, then the insert's count
					while (resultSet || statement.getUpdateCount() != -1) {
						if (!resultSet) {
							return statement.getUpdateCount();
						}
						resultSet = statement.getMoreResults();
					}
					return 0;
				});
		return (inserted != null) ? inserted : 0;
	}

	private int insertInTransaction(String insert, Object[] arguments) {
		Integer inserted = this.transactions.execute((status) -> {
			this.jdbc.execute(this.startLock);
			return this.jdbc.update(insert, arguments);
		});
		return (inserted != null) ? inserted : 0;
	}

	private List<Boolean> delete(List<String> keys) {
		this.jdbc.update(delete(keys.size()), keys.toArray());
		return Collections.nCopies(keys.size(), Boolean.TRUE);
	}

	private String insert(int rows) {
		String insert = this.inserts[rows];
		if (insert == null) {
			StringBuilder values = new StringBuilder();
			for (int n = 1; n <= rows; n++) {
				values.append((n > 1) ? ", " : "").append("(?, ?, ?, ?, ?, ?, ").append(n).append(')');
			}
			insert = "INSERT INTO " + JdbcMcpSessionRegistry.TABLE + " (" + COLUMNS + ") SELECT " + COLUMNS
					+ " FROM (VALUES " + values + ") AS started (" + COLUMNS + ", n) WHERE n <= ? - (SELECT COUNT(*)"
					+ " FROM " + JdbcMcpSessionRegistry.TABLE + " WHERE last_used >= ?)";
			this.inserts[rows] = insert;
		}
		return insert;
	}

	private String delete(int rows) {
		String delete = this.deletes[rows];
		if (delete == null) {
			delete = "DELETE FROM " + JdbcMcpSessionRegistry.TABLE + " WHERE id IN ("
					+ String.join(", ", Collections.nCopies(rows, "?")) + ")";
			this.deletes[rows] = delete;
		}
		return delete;
	}

	/**
	 * A session's row to insert.
	 *
	 * @param key the digest of the session's id
	 * @param owner the digest of its owner's name, if it has one
	 * @param protocolVersion its protocol version
	 * @param initializeRequest the client's {@code initialize} params, as JSON
	 * @param now its start, in epoch milliseconds (its first use)
	 * @param liveSince the oldest last use of a row that holds a slot of the cap
	 */
	record Start(String key, @Nullable String owner, @Nullable String protocolVersion, String initializeRequest,
			long now, long liveSince) {
	}

}
