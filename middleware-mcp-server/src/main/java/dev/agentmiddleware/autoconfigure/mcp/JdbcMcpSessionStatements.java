package dev.agentmiddleware.autoconfigure.mcp;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

import org.jspecify.annotations.Nullable;

import org.springframework.jdbc.core.ArgumentPreparedStatementSetter;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.RowMapper;
import org.springframework.jdbc.core.RowMapperResultSetExtractor;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The statements of {@link JdbcMcpSessionRegistry} on its table. The starts and ends of
 * its sessions are each written in groups ({@link GroupCommit}): the starts that an
 * instance's requests ask for while a start is being written go to the database together,
 * in one statement and one transaction that takes the cap's lock once, and so do the
 * ends. A start alone is written at once, as before; under load an instance holds the
 * lock of the starts once per group instead of once per start, and uses one connection
 * for its starts and one for its ends instead of one per waiting request.
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
 *
 * <p>
 * On PostgreSQL no statement here scans the table, which holds the rows of ended sessions
 * until vacuum: a start's count reads the index of {@code last_used}, and every statement
 * by key (the ends, and a request's read of its row and write of its last use, which the
 * registry runs through {@link #queryByKey} and {@link #updateByKey}) finds its rows by
 * the primary key, whatever plan the planner made for the one page a vacuum leaves.
 */
final class JdbcMcpSessionStatements {

	/** The most starts, and the most ends, that one statement writes. */
	static final int MAX_GROUP = 64;

	// Selected with the lock in a start's transaction on PostgreSQL, lasting until
	// its end: the commit does not wait for the WAL flush, and the cap's count reads
	// the index of last_used. The rows of ended sessions stay in the table until
	// vacuum (a minute apart at most by default, a thousand ended sessions a second
	// under load): a sequential or bitmap scan, which the planner chooses for a small
	// table, reads every one of them at every start, with the lock held; an index
	// scan marks each one it finds deleted and skips it from then on
	static final String START_SETTINGS = "set_config('synchronous_commit', 'off', true),"
			+ " set_config('enable_seqscan', 'off', true), set_config('enable_bitmapscan', 'off', true)";

	// Selected before every statement by key on PostgreSQL (a group's DELETE, a
	// request's read of its row and its write of last_used), lasting until the end of its
	// transaction: the rows are found by the primary key, not by a scan of the table and
	// the rows of ended sessions it holds until vacuum (which the planner chooses for a
	// table of one page, even for one key)
	static final String BY_KEY_SETTINGS = "SELECT set_config('enable_seqscan', 'off', true)";

	private static final String COLUMNS = "id, owner_name, protocol_version, initialize_request, created_at, last_used";

	private final JdbcTemplate jdbc;

	private final TransactionTemplate transactions;

	// H2: taken first in every start's transaction
	private final String startLock;

	// PostgreSQL: the lock and START_SETTINGS, sent before a start's insert
	private final String startSettings;

	// PostgreSQL: the lock, the settings and the insert in one message, the setting and
	// a statement by key in another
	private final boolean pipelined;

	private final int maxSessions;

	private final GroupCommit<Start, Boolean> starts = new GroupCommit<>(MAX_GROUP, this::insertUnderCap);

	private final GroupCommit<String, Boolean> ends = new GroupCommit<>(MAX_GROUP, this::delete);

	// The statements by group size, made once
	private final String[] inserts = new String[MAX_GROUP + 1];

	private final String[] deletes = new String[MAX_GROUP + 1];

	JdbcMcpSessionStatements(JdbcTemplate jdbc, TransactionTemplate transactions, String startLock, boolean pipelined,
			int maxSessions) {
		this.jdbc = jdbc;
		this.transactions = transactions;
		this.startLock = startLock;
		this.startSettings = startLock + ", " + START_SETTINGS;
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

	// Both statements in one message to the database, one implicit transaction on the
	// pool's autocommit connection (as every other statement here): the lock is held
	// while PostgreSQL inserts and commits, never while a reply travels to this instance
	// and back. Each statement of a READ COMMITTED transaction reads a snapshot of its
	// own, so the count, taken after the lock, sees every start before it. The settings
	// selected with the lock (set_config(..., true): until the end of this transaction
	// only, SET LOCAL without the warning PostgreSQL gives outside an explicit block) let
	// the commit skip the WAL flush, so the lock is released once the rows are inserted,
	// not after an fsync (only durability is deferred; the count and the rows' visibility
	// are as before), and make the count an index scan (START_SETTINGS).
	private int insertPipelined(String insert, Object[] arguments) {
		return updateAfter(this.startSettings, insert, arguments);
	}

	// A SELECT and an update in one message, one implicit transaction: the update's count
	private int updateAfter(String select, String update, Object[] arguments) {
		Integer count = this.jdbc.execute(select + "; " + update, (PreparedStatement statement) -> {
			new ArgumentPreparedStatementSetter(arguments).setValues(statement);
			boolean resultSet = statement.execute();
			// The SELECT's row, then the update's count
			while (resultSet || statement.getUpdateCount() != -1) {
				if (!resultSet) {
					return statement.getUpdateCount();
				}
				resultSet = statement.getMoreResults();
			}
			return 0;
		});
		return (count != null) ? count : 0;
	}

	private int insertInTransaction(String insert, Object[] arguments) {
		Integer inserted = this.transactions.execute((status) -> {
			this.jdbc.execute(this.startLock);
			return this.jdbc.update(insert, arguments);
		});
		return (inserted != null) ? inserted : 0;
	}

	private List<Boolean> delete(List<String> keys) {
		updateByKey(delete(keys.size()), keys.toArray());
		return Collections.nCopies(keys.size(), Boolean.TRUE);
	}

	/**
	 * Runs a query that finds its rows by key: on PostgreSQL after
	 * {@link #BY_KEY_SETTINGS}, in the same message.
	 * @param <T> the rows' type
	 * @param query the query
	 * @param rows maps each row
	 * @param arguments the query's arguments
	 * @return the rows
	 */
	<T> List<T> queryByKey(String query, RowMapper<T> rows, Object... arguments) {
		if (!this.pipelined) {
			return this.jdbc.query(query, rows, arguments);
		}
		List<T> found = this.jdbc.execute(BY_KEY_SETTINGS + "; " + query, (PreparedStatement statement) -> {
			new ArgumentPreparedStatementSetter(arguments).setValues(statement);
			statement.execute();
			// The settings' row, then the query's
			if (!statement.getMoreResults()) {
				throw new IllegalStateException("No rows came back for: " + query);
			}
			try (ResultSet result = statement.getResultSet()) {
				return new RowMapperResultSetExtractor<>(rows).extractData(result);
			}
		});
		return (found != null) ? found : List.of();
	}

	/**
	 * Runs an update that finds its rows by key: on PostgreSQL after
	 * {@link #BY_KEY_SETTINGS}, in the same message.
	 * @param update the update
	 * @param arguments its arguments
	 * @return the number of rows updated
	 */
	int updateByKey(String update, Object... arguments) {
		return this.pipelined ? updateAfter(BY_KEY_SETTINGS, update, arguments) : this.jdbc.update(update, arguments);
	}

	// The statement that inserts a group of the given size (package-private for tests)
	String insert(int rows) {
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

	// The statement that deletes a group of the given size (package-private for tests)
	String delete(int rows) {
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
