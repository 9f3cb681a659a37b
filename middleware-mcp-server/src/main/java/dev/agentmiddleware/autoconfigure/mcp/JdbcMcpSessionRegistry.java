package dev.agentmiddleware.autoconfigure.mcp;

import dev.agentmiddleware.autoconfigure.internal.IdDigests;
import java.io.IOException;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.function.Supplier;

import javax.sql.DataSource;

import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpStreamableServerSession;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.core.io.ClassPathResource;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.jdbc.datasource.init.ResourceDatabasePopulator;
import org.springframework.jdbc.datasource.init.ScriptUtils;
import org.springframework.transaction.support.TransactionTemplate;
import org.springframework.util.ClassUtils;

/**
 * The sessions of every instance on one database: a session started on one instance is a
 * row of table {@value #TABLE} (the digest of its id, the digest of its owner's name, its
 * protocol version, the client's {@code initialize} params and the time it was last
 * used), and any instance that receives a request naming it recreates the MCP SDK's
 * session from that row. The idle timeout and the cap count the rows, so they hold for
 * the cluster; ending a session deletes its row, so it is gone on every instance (the
 * next request naming it gets 404 on the instance that ended it at once, elsewhere as
 * described below).
 *
 * <p>
 * The table keeps no session id: an id is a bearer secret, so a row is keyed by its
 * SHA-256 ({@link IdDigests#of}), which a lookup computes from the id the client sends.
 * The owner is only ever compared with the caller, so a row keeps the SHA-256 of the
 * principal's name, which fits its column however long the name (a token's subject of any
 * length owns its session); it does not hide the name, which is easily guessed back from
 * it. Both are {@value IdDigests#LENGTH} characters, the width of columns {@code id} and
 * {@code owner_name}; the protocol version is at most
 * {@value McpSessionRegistry#MAX_PROTOCOL_VERSION_LENGTH} characters, the width of
 * {@code protocol_version}, and a longer one is refused before a session starts (by
 * {@link McpRequestValidator}, 400 with {@code -32602}).
 *
 * <p>
 * The cap is exact for the cluster: a start inserts its row with one statement that
 * counts the live rows first
 * ({@code INSERT ... SELECT ... WHERE (SELECT COUNT(*) ...) < max}), in a transaction
 * that holds a lock every instance's starts take first (on PostgreSQL a transaction-level
 * advisory lock keyed by this table and the current schema, elsewhere a row lock on
 * {@value #LOCK_TABLE}), so two instances starting the last free session at once give it
 * to one of them, and an expired session never holds a slot (its row is not counted). The
 * lock is held for that statement and its commit only, and the instance takes no lock of
 * its own: a start waits for a connection as any request does, then in the database for
 * the starts of every instance ahead of it. On PostgreSQL the lock and the insert travel
 * in one message and run as one implicit transaction, so the lock is never held across a
 * round trip between the instance and the database. No race is accepted for the cap.
 * Starts that one instance's requests ask for while a start of it is being written go to
 * the database together, in one such statement that inserts as many of them as there are
 * free slots, and so do its ends, in one {@code DELETE}
 * ({@link JdbcMcpSessionStatements}): a start alone is written at once, and under load
 * the lock is taken once per group.
 *
 * <p>
 * On PostgreSQL a start's commit does not wait for the WAL flush
 * ({@code set_config('synchronous_commit', 'off', true)} in its transaction, which lasts
 * until its end only), so the lock is released once the row is inserted, not after an
 * fsync, and the starts of the cluster are not serialized behind one fsync each. Only
 * durability is deferred: the count and the row's visibility are unchanged. The table is
 * soft state: a database crash can forget the starts of its last fraction of a second (at
 * most three times {@code wal_writer_delay}); their clients get 404 and start a new
 * session, as MCP clients do. Ends stay synchronous: an ended session never comes back.
 * The count of a start reads the index of {@code last_used}, never the table
 * ({@code enable_seqscan} and {@code enable_bitmapscan} off in the same way), and every
 * statement by key finds its rows by the primary key ({@code enable_seqscan} off, sent in
 * the same message): under load the rows of ended sessions pile up until vacuum, and a
 * scan of the table, which the planner chooses for the one page a vacuum leaves, would
 * read them all at every start (with the lock held) and every read of a row, where an
 * index scan skips each one after it has first found it deleted.
 *
 * <p>
 * Last use is written lazily: a request writes {@code last_used} only when the stored
 * value is older than the {@linkplain #touchInterval(Duration) touch interval},
 * {@code min(idleTimeout / 20, 30 s)}, so a busy session costs one {@code UPDATE} per
 * interval. The stored value then lags the last use by less than that interval, and a
 * session expires when its stored last use is older than the idle timeout plus the
 * interval: never before it has been unused for the idle timeout, at most one interval
 * after. Expired rows are not counted by the cap nor found by a request (which deletes
 * one it names); the first start after each interval deletes them all, and ends this
 * instance's copies of sessions ended or expired on any instance.
 *
 * <p>
 * On H2 every request reads its session's row (one {@code SELECT} by key). On PostgreSQL
 * (with its driver) a trigger announces every deleted row, whoever deletes it (an end,
 * the sweep, an operator), with {@code pg_notify} on a channel of the table's schema
 * ({@code agent_mcp_session_} and the MD5 of the schema's name) and the row's id, the
 * digest, never the session id. Each instance {@code LISTEN}s on it on one connection of
 * the pool, held while the registry runs ({@link PostgresMcpSessionEnds}), and ends its
 * copy of a session whose end it hears. A request then skips the row when all of these
 * hold: the listener is healthy (listening, and a probe of its connection succeeded
 * within three probe intervals), this instance has a copy of the session, and that copy
 * was checked against its row (read or written by this instance, a start included) while
 * the listener's current {@code LISTEN} was healthy, with no end of a session of its
 * stripe heard during the check, and the row's stored last use is less than a touch
 * interval old. Otherwise the request reads the row as on H2, and the check counts from
 * then. So a session ended on another instance is refused here once its end is heard
 * (typically within milliseconds); a request before that may still be served. While the
 * listener is unhealthy every request reads its row, and copies checked before its next
 * {@code LISTEN} are not trusted (ends may have been missed meanwhile). The owner's check
 * is the same either way: a copy keeps its owner's name.
 *
 * <p>
 * The MCP SDK (2.0.x) gives every session it starts a random id of its own and has no way
 * to start one under a given id, so an instance that recreates a session keeps the SDK's
 * copy under the id the client knows ({@link McpLiveSession#id()}). What stays on an
 * instance: its copies and their open streams, so a request the server sends the client
 * during a call (elicitation) travels on the response stream of the instance that took
 * the call, and its answer must reach that instance. <pre>{@code
 * McpSessionRegistry registry = new JdbcMcpSessionRegistry(dataSource, jsonMapper, Duration.ofMinutes(30), 1000,
 *         Clock.systemUTC(), () -> sessionFactory);
 * // at shutdown: ends this instance's copies and gives the listening connection back
 * registry.endAll();
 * }</pre>
 */
final class JdbcMcpSessionRegistry implements McpSessionRegistry {

	/** The table of the shared sessions. */
	static final String TABLE = "agent_mcp_session";

	/**
	 * The one-row table whose row lock serializes session starts where there are no
	 * advisory locks (H2).
	 */
	static final String LOCK_TABLE = "agent_mcp_session_lock";

	/** The longest time a session's stored last use lags behind its last use. */
	static final Duration MAX_TOUCH_INTERVAL = Duration.ofSeconds(30);

	// The first key of the advisory lock (the second is the schema's): "MCPS", so that it
	// names this table
	static final int ADVISORY_LOCK_KEY = 0x4D435053;

	/** How often the connection that hears the ends of sessions is probed by default. */
	static final Duration PROBE_INTERVAL = Duration.ofSeconds(5);

	/** The longest wait between two attempts to listen again by default. */
	static final Duration MAX_BACKOFF = Duration.ofSeconds(30);

	// The stripes of the count of ends heard (a power of two)
	private static final int STRIPES = 1024;

	// A request's read of its session's row
	static final String FIND = "SELECT owner_name, initialize_request, last_used FROM " + TABLE + " WHERE id = ?";

	// A request's write of its session's last use, never moving it back
	static final String TOUCH = "UPDATE " + TABLE + " SET last_used = ? WHERE id = ? AND last_used < ?";

	// The transport's log category, which operators configure for all of it
	private static final Logger logger = LoggerFactory.getLogger(HardenedStreamableHttpTransport.class);

	private final JdbcTemplate jdbc;

	private final TransactionTemplate transactions;

	// The statements on the table: starts and ends written in groups, reads and writes by
	// key
	private final JdbcMcpSessionStatements statements;

	private final McpJsonMapper jsonMapper;

	private final Duration idleTimeout;

	private final int maxSessions;

	// A stored last use younger than this is not written again
	private final Duration touchInterval;

	// How long after its stored last use a session expires: the idle timeout plus the
	// touch interval
	private final Duration expiry;

	// When the next start deletes the expired rows (epoch milliseconds)
	private final AtomicLong nextSweep = new AtomicLong(Long.MIN_VALUE);

	private final Clock clock;

	private final Supplier<McpStreamableServerSession.@Nullable Factory> factory;

	// This instance's copies of the sessions, by the id the client knows
	private final Map<String, Copy> local = new ConcurrentHashMap<>();

	// The ids of the copies by the digests their rows are keyed by, for the ends heard
	private final Map<String, String> idsByDigest = new ConcurrentHashMap<>();

	// How many ends were heard for the digests of each stripe: a copy checked against
	// its row is trusted only when no end of its stripe was heard meanwhile (the end of
	// its own session may have been heard before the copy was kept)
	private final AtomicLongArray endsHeard = new AtomicLongArray(STRIPES);

	private final DataSource dataSource;

	// Whether ends are heard (PostgreSQL with its driver): requests on a copy checked
	// recently then skip its row
	private final boolean nearCache;

	private final Duration probeInterval;

	private final Duration maxBackoff;

	// Listening while the registry serves, stopped by endAll (at shutdown)
	private volatile @Nullable PostgresMcpSessionEnds ends;

	private final Object listening = new Object();

	/**
	 * Keeps the sessions in a database, creating table {@value #TABLE} when it is missing
	 * (on H2 also {@value #LOCK_TABLE}, whose one row serializes session starts).
	 * @param dataSource the database every instance shares (PostgreSQL, or H2 for a
	 * single machine)
	 * @param jsonMapper writes and reads the stored {@code initialize} params
	 * @param idleTimeout how long an unused session lives
	 * @param maxSessions the most sessions the cluster holds
	 * @param clock the clock of the idle times
	 * @param factory the MCP SDK's session factory, once the server has set it
	 */
	JdbcMcpSessionRegistry(DataSource dataSource, McpJsonMapper jsonMapper, Duration idleTimeout, int maxSessions,
			Clock clock, Supplier<McpStreamableServerSession.@Nullable Factory> factory) {
		this(dataSource, jsonMapper, idleTimeout, maxSessions, clock, factory, PROBE_INTERVAL, MAX_BACKOFF);
	}

	/**
	 * Keeps the sessions in a database, as the other constructor does, with the given
	 * timing of the connection that hears the ends of sessions on PostgreSQL.
	 * @param dataSource the database every instance shares
	 * @param jsonMapper writes and reads the stored {@code initialize} params
	 * @param idleTimeout how long an unused session lives
	 * @param maxSessions the most sessions the cluster holds
	 * @param clock the clock of the idle times
	 * @param factory the MCP SDK's session factory, once the server has set it
	 * @param probeInterval how often the listening connection is probed (it is unhealthy
	 * when no probe succeeded for three intervals)
	 * @param maxBackoff the longest wait between two attempts to listen again
	 */
	JdbcMcpSessionRegistry(DataSource dataSource, McpJsonMapper jsonMapper, Duration idleTimeout, int maxSessions,
			Clock clock, Supplier<McpStreamableServerSession.@Nullable Factory> factory, Duration probeInterval,
			Duration maxBackoff) {
		this.dataSource = dataSource;
		this.probeInterval = probeInterval;
		this.maxBackoff = maxBackoff;
		this.jdbc = new JdbcTemplate(dataSource);
		this.transactions = new TransactionTemplate(new DataSourceTransactionManager(dataSource));
		this.jsonMapper = jsonMapper;
		this.idleTimeout = idleTimeout;
		this.maxSessions = maxSessions;
		this.touchInterval = touchInterval(idleTimeout);
		this.expiry = idleTimeout.plus(this.touchInterval);
		this.clock = clock;
		this.factory = factory;
		boolean postgres = createSchema(dataSource);
		// Taken first in every start's transaction, released by its commit
		String startLock = postgres
				? "SELECT pg_advisory_xact_lock(" + ADVISORY_LOCK_KEY + ", hashtext(current_schema()))"
				: "SELECT id FROM " + LOCK_TABLE + " WHERE id = 1 FOR UPDATE";
		this.statements = new JdbcMcpSessionStatements(this.jdbc, this.transactions, startLock, postgres, maxSessions);
		this.nearCache = postgres
				&& ClassUtils.isPresent("org.postgresql.PGConnection", JdbcMcpSessionRegistry.class.getClassLoader())
				&& createEndTrigger(startLock);
		listen();
	}

	// The trigger that announces every deleted row, created or replaced under the lock
	// of the starts (two instances starting at once would otherwise race on the catalog);
	// without it (a user that does not own the table) every request reads its row
	private boolean createEndTrigger(String startLock) {
		ResourceDatabasePopulator populator = new ResourceDatabasePopulator(
				new ClassPathResource("schema-postgresql-session-ends.sql", JdbcMcpSessionRegistry.class));
		populator.setSeparator(ScriptUtils.EOF_STATEMENT_SEPARATOR);
		try {
			this.transactions.executeWithoutResult((status) -> {
				this.jdbc.execute(startLock);
				populator.execute(this.dataSource);
			});
			return true;
		}
		catch (RuntimeException ex) {
			logger.warn("The trigger that announces the ends of MCP sessions cannot be created on table {} ({});"
					+ " every request reads its session's row", TABLE, ex.getClass().getSimpleName());
			return false;
		}
	}

	// Starts hearing the ends of sessions, unless it does already
	private void listen() {
		PostgresMcpSessionEnds current = this.ends;
		if (this.nearCache && (current == null || current.isStopped())) {
			synchronized (this.listening) {
				current = this.ends;
				if (current == null || current.isStopped()) {
					this.ends = PostgresMcpSessionEnds.start(this.dataSource, this.probeInterval, this.maxBackoff,
							this::endHeard);
				}
			}
		}
	}

	// A row was deleted, here or on another instance: this instance's copy of its
	// session ends
	private void endHeard(String digest) {
		this.endsHeard.incrementAndGet(stripe(digest));
		String id = this.idsByDigest.get(digest);
		if (id != null) {
			dropLocal(id);
		}
	}

	// The number of the listener's current LISTEN if it is healthy, else 0: a copy
	// checked
	// against its row under that number is trusted, under no other
	private long healthyListen() {
		PostgresMcpSessionEnds current = this.ends;
		return (current != null) ? current.healthyListen() : 0;
	}

	/**
	 * Whether requests may be served from this instance's copies without reading their
	 * rows: the ends of sessions are heard, on a healthy connection.
	 * @return whether the near-cache is trusted now
	 */
	boolean hearsEnds() {
		return healthyListen() != 0;
	}

	// The server process of the listening connection (for tests), 0 when not listening
	int listenerBackendPid() {
		PostgresMcpSessionEnds current = this.ends;
		return (current != null) ? current.backendPid() : 0;
	}

	private static int stripe(String digest) {
		return digest.hashCode() & (STRIPES - 1);
	}

	/**
	 * How long a session's stored last use may lag behind its last use: a request writes
	 * {@code last_used} only when the stored value is older than this, and a session
	 * expires this long after the idle timeout at most.
	 * @param idleTimeout how long an unused session lives
	 * @return {@code min(idleTimeout / 20, 30 s)}
	 */
	static Duration touchInterval(Duration idleTimeout) {
		Duration fraction = idleTimeout.dividedBy(20);
		return (fraction.compareTo(MAX_TOUCH_INTERVAL) < 0) ? fraction : MAX_TOUCH_INTERVAL;
	}

	// Creates the missing tables in the database's dialect and says whether it is
	// PostgreSQL
	private static boolean createSchema(DataSource dataSource) {
		boolean postgres;
		try (Connection connection = dataSource.getConnection()) {
			String product = connection.getMetaData().getDatabaseProductName().toLowerCase(Locale.ROOT);
			postgres = product.contains("postgres");
		}
		catch (SQLException ex) {
			throw new IllegalStateException("The MCP session store cannot reach its database", ex);
		}
		String script = postgres ? "schema-postgresql.sql" : "schema-h2.sql";
		new ResourceDatabasePopulator(new ClassPathResource(script, JdbcMcpSessionRegistry.class)).execute(dataSource);
		return postgres;
	}

	@Override
	public McpStreamableServerSession.@Nullable McpStreamableServerSessionInit start(
			McpStreamableServerSession.Factory factory, McpSchema.InitializeRequest request, @Nullable String owner) {
		listen();
		long now = this.clock.millis();
		sweepIfDue(now);
		// The SDK's session first, for its id; a refused start closes it before anyone
		// has seen it
		McpStreamableServerSession.McpStreamableServerSessionInit init = factory.startSession(request);
		String key = IdDigests.of(init.session().getId());
		long listen = healthyListen();
		long heard = this.endsHeard.get(stripe(key));
		if (!this.statements.start(new JdbcMcpSessionStatements.Start(key, ownerDigest(owner),
				request.protocolVersion(), write(request), now, now - this.expiry.toMillis()))) {
			init.session().close();
			logger.warn("MCP session refused: the limit of {} live sessions is reached", this.maxSessions);
			return null;
		}
		Copy copy = keep(init.session().getId(),
				new Copy(new McpLiveSession(init.session(), owner, Instant.ofEpochMilli(now)), key));
		// Written by this instance: checked at its start
		trustIfUnchanged(copy, listen, heard, now);
		return init;
	}

	// The first start of each touch interval deletes the expired rows and ends this
	// instance's copies of sessions
	// ended or expired anywhere; the others go on without waiting for it
	private void sweepIfDue(long now) {
		long due = this.nextSweep.get();
		if (now < due || !this.nextSweep.compareAndSet(due, now + this.touchInterval.toMillis())) {
			return;
		}
		this.jdbc.update("DELETE FROM " + TABLE + " WHERE last_used < ?", now - this.expiry.toMillis());
		dropLocalCopiesOfDeletedRows();
	}

	@Override
	public @Nullable McpLiveSession find(String id, @Nullable String principalName) {
		Instant now = this.clock.instant();
		Copy known = this.local.get(id);
		if (known != null && isTrusted(known, now.toEpochMilli())) {
			// Checked against its row less than a touch interval ago while every end was
			// heard since: the row is not read again
			McpLiveSession live = known.live();
			if (!live.belongsTo(principalName)) {
				logger.warn("MCP request refused: it names a session that another principal started");
				return null;
			}
			live.touch(now);
			return live;
		}
		String key = (known != null) ? known.digest() : IdDigests.of(id);
		// Read before the row: the row is then read while this LISTEN lasts, so an end
		// after the read is heard
		long listen = healthyListen();
		long heard = this.endsHeard.get(stripe(key));
		List<StoredSession> rows = this.statements.queryByKey(FIND,
				(rs, rowNum) -> new StoredSession(rs.getString(1), rs.getString(2), rs.getLong(3)), key);
		if (rows.isEmpty()) {
			// Ended or expired, here or on another instance
			dropLocal(id);
			return null;
		}
		StoredSession stored = rows.get(0);
		Duration sinceStored = Duration.between(Instant.ofEpochMilli(stored.lastUsed()), now);
		if (sinceStored.compareTo(this.expiry) > 0) {
			logger.debug("MCP session expired after {} idle", this.idleTimeout);
			end(id);
			return null;
		}
		if (stored.owner() != null && !stored.owner().equals(ownerDigest(principalName))) {
			// Answered exactly as an unknown session: the id of another principal's
			// session is worth nothing
			logger.warn("MCP request refused: it names a session that another principal started");
			return null;
		}
		long storedLastUse = stored.lastUsed();
		if (sinceStored.compareTo(this.touchInterval) > 0) {
			// Never moved back by an instance that writes an earlier time
			this.statements.updateByKey(TOUCH, now.toEpochMilli(), key, now.toEpochMilli());
			storedLastUse = now.toEpochMilli();
		}
		Copy copy = this.local.get(id);
		if (copy == null) {
			// The row keeps only a digest of the owner's name, which is the caller's: the
			// copy is the caller's
			copy = recreate(id, key, stored, (stored.owner() != null) ? principalName : null, now);
			if (copy == null) {
				return null;
			}
		}
		trustIfUnchanged(copy, listen, heard, storedLastUse);
		McpLiveSession live = copy.live();
		live.touch(now);
		return live;
	}

	// The SDK's session of one started on another instance, from the initialize params
	// the client sent there
	private @Nullable Copy recreate(String id, String key, StoredSession stored, @Nullable String owner, Instant now) {
		McpStreamableServerSession.Factory sessionFactory = this.factory.get();
		if (sessionFactory == null) {
			return null;
		}
		McpSchema.InitializeRequest request = read(stored.initializeRequest());
		McpStreamableServerSession session = sessionFactory.startSession(request).session();
		Copy recreated = new Copy(new McpLiveSession(id, session, owner, now), key);
		Copy kept = keep(id, recreated);
		if (kept != recreated) {
			session.close();
			return kept;
		}
		logger.debug("MCP session started on another instance continues here");
		return recreated;
	}

	// Keeps a copy unless one raced it in; the copy kept
	private Copy keep(String id, Copy copy) {
		Copy raced = this.local.putIfAbsent(id, copy);
		if (raced != null) {
			return raced;
		}
		this.idsByDigest.put(copy.digest(), id);
		if (this.local.get(id) != copy) {
			// Ended meanwhile
			this.idsByDigest.remove(copy.digest(), id);
		}
		return copy;
	}

	// A copy just checked against its row (read or written while LISTEN number listen
	// was healthy) is trusted until its stored last use is a touch interval old, so the
	// stored value never lags a use by more than that interval; not when an end of its
	// stripe was heard since the check began (its own may have been heard before the copy
	// was kept and indexed)
	private void trustIfUnchanged(Copy copy, long listen, long heard, long storedLastUse) {
		if (listen != 0 && this.endsHeard.get(stripe(copy.digest())) == heard) {
			copy.trust(new Trust(listen, storedLastUse + this.touchInterval.toMillis()));
		}
	}

	// Whether a request on this copy may skip its row: the listener is healthy on the
	// LISTEN the copy was checked under, and the check is recent
	private boolean isTrusted(Copy copy, long now) {
		Trust trust = copy.trust();
		return trust != null && now < trust.until() && trust.listen() == healthyListen();
	}

	@Override
	public @Nullable McpLiveSession get(String id) {
		Copy copy = this.local.get(id);
		return (copy != null) ? copy.live() : null;
	}

	@Override
	public List<McpLiveSession> sessions() {
		return this.local.values().stream().map(Copy::live).toList();
	}

	@Override
	public void end(String id) {
		this.statements.end(IdDigests.of(id));
		dropLocal(id);
	}

	/**
	 * Ends this instance's copies of the sessions (at shutdown); their rows stay, so
	 * other instances go on serving them. On PostgreSQL the listening connection goes
	 * back to the pool; the next session started here listens again.
	 */
	@Override
	public void endAll() {
		PostgresMcpSessionEnds current = this.ends;
		if (current != null) {
			current.stop();
		}
		for (String id : List.copyOf(this.local.keySet())) {
			dropLocal(id);
		}
	}

	// The statements on the table, for tests
	JdbcMcpSessionStatements statements() {
		return this.statements;
	}

	@Override
	public int maxSessions() {
		return this.maxSessions;
	}

	/**
	 * The number of live sessions of the cluster (rows whose stored last use is not older
	 * than the idle timeout plus the touch interval).
	 * @return the number of sessions
	 */
	@Override
	public int size() {
		long oldest = this.clock.millis() - this.expiry.toMillis();
		Integer count = this.jdbc.queryForObject("SELECT COUNT(*) FROM " + TABLE + " WHERE last_used >= ?",
				Integer.class, oldest);
		return (count != null) ? count : 0;
	}

	// Sessions expired or ended on any instance end their copies here too
	private void dropLocalCopiesOfDeletedRows() {
		// A copy is not idle because it was not used here: the client may have gone on on
		// another instance
		Set<String> stored = new HashSet<>(this.jdbc.queryForList("SELECT id FROM " + TABLE, String.class));
		for (Map.Entry<String, Copy> copy : List.copyOf(this.local.entrySet())) {
			if (!stored.contains(copy.getValue().digest())) {
				dropLocal(copy.getKey());
			}
		}
	}

	// What a row keeps of the owner's name: its SHA-256, only ever compared with the
	// caller's
	private static @Nullable String ownerDigest(@Nullable String principalName) {
		return (principalName != null) ? IdDigests.of(principalName) : null;
	}

	private void dropLocal(String id) {
		Copy copy = this.local.remove(id);
		if (copy == null) {
			return;
		}
		this.idsByDigest.remove(copy.digest(), id);
		copy.live().end();
	}

	private String write(McpSchema.InitializeRequest request) {
		try {
			return this.jsonMapper.writeValueAsString(request);
		}
		catch (IOException ex) {
			throw new IllegalStateException("The initialize params of an MCP session cannot be stored", ex);
		}
	}

	private McpSchema.InitializeRequest read(String json) {
		try {
			return this.jsonMapper.readValue(json, McpSchema.InitializeRequest.class);
		}
		catch (IOException ex) {
			throw new IllegalStateException("The stored initialize params of an MCP session cannot be read", ex);
		}
	}

	// A row: the digest of its owner's name (null for an anonymous session), the
	// initialize params, the last use
	private record StoredSession(@Nullable String owner, String initializeRequest, long lastUsed) {
	}

	// What a request on this copy may trust without its row: checked under LISTEN number
	// listen, good until the epoch millisecond until
	private record Trust(long listen, long until) {
	}

	// This instance's copy of a session, the digest its row is keyed by, and how far it
	// is trusted
	private static final class Copy {

		private final McpLiveSession live;

		private final String digest;

		private volatile @Nullable Trust trust;

		Copy(McpLiveSession live, String digest) {
			this.live = live;
			this.digest = digest;
		}

		McpLiveSession live() {
			return this.live;
		}

		String digest() {
			return this.digest;
		}

		@Nullable Trust trust() {
			return this.trust;
		}

		void trust(Trust trust) {
			this.trust = trust;
		}

	}

}
