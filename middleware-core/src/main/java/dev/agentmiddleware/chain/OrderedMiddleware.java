package dev.agentmiddleware.chain;

/**
 * Middleware that knows its place in a chain: a lower order runs further out. The
 * built-ins implement it with the defaults of {@link BuiltInOrder}, changeable per
 * application; the Spring layer sorts them together with {@code @Order} and
 * {@code Ordered} beans. <pre>{@code
 * final class TenantPolicy implements OrderedMiddleware {
 *     public int order() { return BuiltInOrder.POLICY; }
 *     public ToolHandler wrap(ToolDescriptor tool, ToolHandler next) { ... }
 * }
 * }</pre>
 */
public interface OrderedMiddleware extends ToolMiddleware {

	/**
	 * The position of this middleware: a lower value runs further out.
	 * @return the order
	 */
	int order();

	/**
	 * The default orders of the built-in middleware, outermost first, with gaps for your
	 * own. A lower order runs further out; middleware with no order runs innermost, after
	 * all of these.
	 *
	 * <table>
	 * <caption>Default order of the built-ins</caption>
	 * <tr>
	 * <th>order</th>
	 * <th>middleware</th>
	 * <th>why here</th>
	 * </tr>
	 * <tr>
	 * <td>100</td>
	 * <td>observation</td>
	 * <td>sees every call, including denials and cache hits</td>
	 * </tr>
	 * <tr>
	 * <td>200</td>
	 * <td>logging</td>
	 * <td>one structured line per call with the outcome</td>
	 * </tr>
	 * <tr>
	 * <td>225</td>
	 * <td>authorization</td>
	 * <td>a caller without the tool's authorities is refused before anything else: before
	 * its arguments are bound, before anyone is asked to approve, before a cache answers
	 * or a permit is spent; still observed and logged</td>
	 * </tr>
	 * <tr>
	 * <td>230</td>
	 * <td>thread budget (the loop guard's {@code max-tool-calls-per-thread} for MCP
	 * calls)</td>
	 * <td>every call the client made counts, whatever answers it later (approval, cache,
	 * bad arguments); a call over the budget is still observed and logged</td>
	 * </tr>
	 * <tr>
	 * <td>240</td>
	 * <td>results</td>
	 * <td>what a tool returns is redacted, guarded and limited for every caller; logs and
	 * observers see the guarded result, and a refused one as the outcome</td>
	 * </tr>
	 * <tr>
	 * <td>250</td>
	 * <td>argument binding</td>
	 * <td>a refused call is still observed and logged; everything inside sees bound
	 * arguments</td>
	 * </tr>
	 * <tr>
	 * <td>275</td>
	 * <td>authorization rules</td>
	 * <td>rules over the bound arguments, the caller and the source, and external
	 * decision points, refuse a call before anyone is asked to approve it</td>
	 * </tr>
	 * <tr>
	 * <td>300</td>
	 * <td>(your policy middleware)</td>
	 * <td>allow and deny lists</td>
	 * </tr>
	 * <tr>
	 * <td>400</td>
	 * <td>approval</td>
	 * <td>a human decides before anything spends resources; never bypassed by a
	 * cache</td>
	 * </tr>
	 * <tr>
	 * <td>500</td>
	 * <td>cache</td>
	 * <td>hits cost no rate-limit permit and no retry</td>
	 * </tr>
	 * <tr>
	 * <td>600</td>
	 * <td>retry</td>
	 * <td>each attempt goes through rate limit and timeout again</td>
	 * </tr>
	 * <tr>
	 * <td>700</td>
	 * <td>rate limit</td>
	 * <td>protects the downstream resource per real execution</td>
	 * </tr>
	 * <tr>
	 * <td>800</td>
	 * <td>timeout</td>
	 * <td>per attempt</td>
	 * </tr>
	 * <tr>
	 * <td>900</td>
	 * <td>crash recovery</td>
	 * <td>closest to the tool: reset the session and retry once</td>
	 * </tr>
	 * </table>
	 */
	public static final class BuiltInOrder {

		/** Observation: Micrometer timer and tracing span. */
		public static final int OBSERVATION = 100;

		/** Logging: one structured line per call. */
		public static final int LOGGING = 200;

		/** Authorization: the authorities a tool requires of its caller. */
		public static final int AUTHORIZATION = 225;

		/** The loop guard's per-thread tool-call budget, for MCP calls. */
		public static final int THREAD_BUDGET = 230;

		/** Result guards: secrets redacted, users' guards, the size limit. */
		public static final int RESULTS = 240;

		/**
		 * Binding of the arguments a model or an MCP client sent, inside observation and
		 * logging.
		 */
		public static final int ARGUMENT_BINDING = 250;

		/**
		 * Authorization rules over the bound arguments, the caller and the source;
		 * external decision points.
		 */
		public static final int AUTHORIZATION_RULES = 275;

		/** Free for user policy middleware such as allow and deny lists. */
		public static final int POLICY = 300;

		/** Human approval of dangerous tools. */
		public static final int APPROVAL = 400;

		/** Caching of read-only tools. */
		public static final int CACHE = 500;

		/** Retries of idempotent tools. */
		public static final int RETRY = 600;

		/** Rate limits and call budgets. */
		public static final int RATE_LIMIT = 700;

		/** Per-attempt timeouts. */
		public static final int TIMEOUT = 800;

		/** Crash recovery of session-backed tools. */
		public static final int CRASH_RECOVERY = 900;

		private BuiltInOrder() {
		}

	}

}
