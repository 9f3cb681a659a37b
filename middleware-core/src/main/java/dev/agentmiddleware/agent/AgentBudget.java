package dev.agentmiddleware.agent;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Clock;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.agentmiddleware.chain.InvalidPolicyException;
import dev.agentmiddleware.thread.ThreadStore;
import dev.agentmiddleware.thread.ThreadStore.InMemoryThreadStore;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Token and cost budgets of agent runs: per run, per thread (a conversation) and per
 * principal per day (UTC), in tokens as the model reports them and in money from the
 * configured {@linkplain ModelPrice price} of the model that answered. An
 * {@link AgentRun} asks {@link #spent} before each model call and {@link #count counts}
 * each model response; when a budget is spent the run ends with a final answer saying
 * which budget and how much was used, such as <em>"Stopped: this thread's token budget of
 * 10,000 is spent (10,412 used)."</em>
 *
 * <p>
 * A budget is spent once its use reaches the limit: the response that crosses it is
 * counted whole (a model call cannot be cut short), and the run ends before the next
 * model call. Per-run counts live in the run; per-thread counts in the
 * {@link ThreadStore} under {@value #THREAD_KEY} of the thread's metadata, and
 * per-principal counts in a record of their own per principal and day, keyed by the
 * SHA-256 of the principal's name (never the name), under {@value #PRINCIPAL_DAY_KEY}; so
 * on a shared (JDBC) store they hold across runs and instances. Scopes without a limit
 * are not written. Two runs that check at the same moment may both make one more model
 * call: a budget bounds the spending to the limit plus at most one response per
 * concurrent run.
 *
 * <p>
 * A response without usage is counted as unknown ({@link Spending#unknownUsage()},
 * metrics {@code agent.tokens.unknown}), never guessed; a response of a model without a
 * price counts no cost and is counted as unpriced ({@link Spending#unpriced()}), with one
 * WARN per model. Thread-safe. <pre>{@code
 * AgentBudget budget = new AgentBudget(new BudgetPolicy(Limits.NONE, new Limits(100_000, new BigDecimal("2.00")),
 *         Limits.NONE, "USD", Map.of("gpt-4o-mini", new ModelPrice(new BigDecimal("0.15"), new BigDecimal("0.60")))),
 *         threadStore, Clock.systemUTC(), UsageMetrics.NONE);
 * }</pre>
 */
public final class AgentBudget {

	/** The thread-metadata key of a thread's spending. */
	public static final String THREAD_KEY = "tokenBudget";

	/**
	 * The metadata key of a principal's spending of one day, in the record of that
	 * principal and day. A key of its own, so that a conversation whose id happens to
	 * equal such a record's id never counts into it.
	 */
	public static final String PRINCIPAL_DAY_KEY = "principalDayBudget";

	private static final Logger logger = LoggerFactory.getLogger(AgentBudget.class);

	private static final BigDecimal MILLION = BigDecimal.valueOf(1_000_000);

	// A dated version of a model, as providers report it: gpt-4o-mini-2024-07-18,
	// claude-3-5-sonnet-20241022.
	private static final Pattern DATED_VERSION = Pattern.compile("(.+)-(?:\\d{4}-\\d{2}-\\d{2}|\\d{8})");

	private final BudgetPolicy policy;

	private final ThreadStore threadStore;

	private final Clock clock;

	private final UsageMetrics metrics;

	private final Set<String> unpricedModelsWarned = ConcurrentHashMap.newKeySet();

	/**
	 * Creates the budgets.
	 * @param policy the limits and prices
	 * @param threadStore keeps the per-thread and per-principal counts
	 * @param clock tells the day (UTC) of the per-principal budgets
	 * @param metrics receives every response's usage
	 */
	public AgentBudget(BudgetPolicy policy, ThreadStore threadStore, Clock clock, UsageMetrics metrics) {
		this.policy = Objects.requireNonNull(policy, "policy");
		this.threadStore = Objects.requireNonNull(threadStore, "threadStore");
		this.clock = Objects.requireNonNull(clock, "clock");
		this.metrics = Objects.requireNonNull(metrics, "metrics");
	}

	/**
	 * Budgets that count nothing and never stop a run.
	 * @return the budgets
	 */
	public static AgentBudget none() {
		return new AgentBudget(BudgetPolicy.UNLIMITED, new InMemoryThreadStore(1), Clock.systemUTC(),
				UsageMetrics.NONE);
	}

	/**
	 * The limits and prices.
	 * @return the policy
	 */
	public BudgetPolicy policy() {
		return this.policy;
	}

	/**
	 * The current day of the per-principal budgets, in UTC.
	 * @return today
	 */
	public LocalDate today() {
		return LocalDate.ofInstant(this.clock.instant(), ZoneOffset.UTC);
	}

	/**
	 * What a thread has spent, as stored (counted only while it has a per-thread limit).
	 * @param threadId the thread
	 * @return its spending
	 */
	public Spending thread(String threadId) {
		return Spending.of(this.threadStore.load(threadId).get(THREAD_KEY));
	}

	/**
	 * What a principal has spent today (counted only while there is a per-principal
	 * limit).
	 * @param principal the principal's name
	 * @return its spending today
	 */
	public Spending principalToday(String principal) {
		return Spending.of(this.threadStore.load(principalDayKey(principal, today())).get(PRINCIPAL_DAY_KEY));
	}

	/**
	 * The id of the thread-store record of a principal's spending on one day:
	 * {@code principal:<sha256 of the name, hex>:<yyyy-mm-dd>}.
	 * @param principal the principal's name
	 * @param day the day (UTC)
	 * @return the record's id
	 */
	public static String principalDayKey(String principal, LocalDate day) {
		try {
			byte[] hash = MessageDigest.getInstance("SHA-256").digest(principal.getBytes(StandardCharsets.UTF_8));
			return "principal:" + HexFormat.of().formatHex(hash) + ":" + day;
		}
		catch (NoSuchAlgorithmException ex) {
			throw new IllegalStateException("SHA-256 is not available", ex);
		}
	}

	/**
	 * Whether a budget is spent, asked before a model call.
	 * @param run the run's spending
	 * @param threadId the run's thread
	 * @param principal the run's principal, or {@code null} (no per-principal budget
	 * applies)
	 * @return the final answer that ends the run, naming the budget and its use, or
	 * {@code null} when none is spent
	 */
	@Nullable String spent(RunSpending run, String threadId, @Nullable String principal) {
		String spent = Scope.RUN.spent(this.policy.perRun(), run.spending(), this.policy.currency());
		if (spent == null && this.policy.perThread().limited()) {
			spent = Scope.THREAD.spent(this.policy.perThread(), thread(threadId), this.policy.currency());
		}
		if (spent == null && principal != null && this.policy.perPrincipalPerDay().limited()) {
			spent = Scope.PRINCIPAL_DAY.spent(this.policy.perPrincipalPerDay(), principalToday(principal),
					this.policy.currency());
		}
		return spent;
	}

	/**
	 * Counts one model response against the run, the thread and the principal's day.
	 * @param run the run's spending
	 * @param threadId the run's thread
	 * @param principal the run's principal, or {@code null}
	 * @param usage what the response used
	 */
	void count(RunSpending run, String threadId, @Nullable String principal, ModelUsage usage) {
		ModelPrice price = usage.known() ? this.policy.priceOf(usage.model()) : null;
		BigDecimal inputCost = (price != null) ? price.inputCost(usage.inputTokens()) : null;
		BigDecimal outputCost = (price != null) ? price.outputCost(usage.outputTokens()) : null;
		boolean unpriced = this.policy.tracksCost() && price == null;
		if (unpriced && usage.known()) {
			warnUnpriced(usage.model());
		}
		Spending delta = new Spending(usage.totalTokens(), usage.inputTokens(), usage.outputTokens(),
				(price != null) ? inputCost.add(outputCost) : BigDecimal.ZERO, usage.known() ? 0 : 1, unpriced ? 1 : 0);
		run.add(delta);
		if (this.policy.perThread().limited()) {
			add(threadId, THREAD_KEY, delta);
		}
		if (principal != null && this.policy.perPrincipalPerDay().limited()) {
			add(principalDayKey(principal, today()), PRINCIPAL_DAY_KEY, delta);
		}
		this.metrics.counted(usage, inputCost, outputCost, principal);
	}

	private void add(String recordId, String key, Spending delta) {
		this.threadStore.update(recordId, (metadata) -> {
			Map<String, @Nullable Object> changed = new LinkedHashMap<>(metadata);
			changed.put(key, Spending.of(metadata.get(key)).plus(delta).toMap());
			return changed;
		});
	}

	private void warnUnpriced(@Nullable String model) {
		String name = (model != null) ? model : "(unnamed)";
		if (this.unpricedModelsWarned.add(name) && logger.isWarnEnabled()) {
			logger.warn(
					"No price for model '{}' among the configured prices {}: its responses count no cost toward "
							+ "the cost budgets and are counted as unpriced (agent.cost.unknown). Add a price for it.",
					name, this.policy.prices().keySet());
		}
	}

	/**
	 * The scopes of a budget, each with the final answer that ends a run when it is
	 * spent.
	 */
	private enum Scope {

		RUN("this run's %s budget of %s is spent (%s used)."),

		THREAD("this thread's %s budget of %s is spent (%s used)."),

		PRINCIPAL_DAY("today's %s budget of %s for this user is spent (%s used; it renews at midnight UTC).");

		private final String text;

		Scope(String text) {
			this.text = text;
		}

		@Nullable String spent(Limits limits, Spending spending, String currency) {
			if (limits.tokens() > 0 && spending.tokens() >= limits.tokens()) {
				return "Stopped: " + String.format(Locale.ROOT, this.text, "token", tokens(limits.tokens()),
						tokens(spending.tokens()));
			}
			BigDecimal cost = limits.cost();
			if (cost != null && limits.limitsCost() && spending.cost().compareTo(cost) >= 0) {
				int scale = Math.max(2, cost.stripTrailingZeros().scale());
				return "Stopped: " + String.format(Locale.ROOT, this.text, "cost", money(cost, scale, currency),
						money(spending.cost(), scale + 2, currency));
			}
			return null;
		}

		private static String tokens(long tokens) {
			return String.format(Locale.ROOT, "%,d", tokens);
		}

		private static String money(BigDecimal amount, int scale, String currency) {
			return String.format(Locale.ROOT, "%,." + scale + "f", amount) + " " + currency;
		}

	}

	/**
	 * The spending of one run, kept in the run.
	 */
	static final class RunSpending {

		private Spending spending = Spending.NONE;

		synchronized Spending spending() {
			return this.spending;
		}

		synchronized void add(Spending delta) {
			this.spending = this.spending.plus(delta);
		}

	}

	/**
	 * The limits of one scope; a token limit of 0 and a cost limit that is not set (or 0)
	 * mean no limit. <pre>{@code
	 * Limits perThread = new Limits(100_000, new BigDecimal("2.00"));
	 * }</pre>
	 *
	 * @param tokens the most tokens (input and output), or 0 for no limit
	 * @param cost the most money, in the policy's currency, or {@code null} for no limit
	 */
	public record Limits(long tokens, @Nullable BigDecimal cost) {

		/** No limit. */
		public static final Limits NONE = new Limits(0, null);

		/**
		 * Validates the limits.
		 */
		public Limits {
			if (tokens < 0) {
				throw new InvalidPolicyException("tokens", "Budget limits must not be negative (0 means no limit)");
			}
			if (cost != null && cost.signum() < 0) {
				throw new InvalidPolicyException("cost", "Budget limits must not be negative (0 means no limit)");
			}
		}

		/**
		 * Whether there is a limit at all.
		 * @return {@code true} if tokens or cost are limited
		 */
		public boolean limited() {
			return this.tokens > 0 || limitsCost();
		}

		/**
		 * Whether the cost is limited.
		 * @return {@code true} with a cost limit above 0
		 */
		public boolean limitsCost() {
			return this.cost != null && this.cost.signum() > 0;
		}

	}

	/**
	 * The price of a model's tokens, per million, in the policy's currency. <pre>{@code
	 * ModelPrice gpt4oMini = new ModelPrice(new BigDecimal("0.15"), new BigDecimal("0.60"));
	 * }</pre>
	 *
	 * @param inputPerMillion the price of a million input (prompt) tokens
	 * @param outputPerMillion the price of a million output (completion) tokens
	 */
	public record ModelPrice(BigDecimal inputPerMillion, BigDecimal outputPerMillion) {

		/**
		 * Validates the prices.
		 */
		public ModelPrice {
			Objects.requireNonNull(inputPerMillion, "inputPerMillion");
			Objects.requireNonNull(outputPerMillion, "outputPerMillion");
			if (inputPerMillion.signum() < 0 || outputPerMillion.signum() < 0) {
				throw new InvalidPolicyException("price", "Prices must not be negative");
			}
		}

		BigDecimal inputCost(long tokens) {
			return this.inputPerMillion.multiply(BigDecimal.valueOf(tokens)).divide(MILLION);
		}

		BigDecimal outputCost(long tokens) {
			return this.outputPerMillion.multiply(BigDecimal.valueOf(tokens)).divide(MILLION);
		}

	}

	/**
	 * The limits per scope, the currency and the prices per model of an
	 * {@link AgentBudget}. <pre>{@code
	 * BudgetPolicy policy = new BudgetPolicy(new Limits(20_000, null), Limits.NONE, new Limits(1_000_000, null), "USD",
	 *         Map.of());
	 * }</pre>
	 *
	 * @param perRun the limits of one run of the agent loop
	 * @param perThread the limits of one thread (a conversation), across runs and
	 * instances
	 * @param perPrincipalPerDay the limits of one principal per day (UTC), across threads
	 * and instances
	 * @param currency the currency of the prices and cost limits, named in the final
	 * answers
	 * @param prices the price per model name; a name also prices its dated versions
	 * ({@code gpt-4o-mini} prices {@code gpt-4o-mini-2024-07-18}); names match ignoring
	 * case
	 */
	public record BudgetPolicy(Limits perRun, Limits perThread, Limits perPrincipalPerDay, String currency,
			Map<String, ModelPrice> prices) {

		/** No limits and no prices. */
		public static final BudgetPolicy UNLIMITED = new BudgetPolicy(Limits.NONE, Limits.NONE, Limits.NONE, "USD",
				Map.of());

		/**
		 * Validates the policy and freezes the prices.
		 */
		public BudgetPolicy {
			Objects.requireNonNull(perRun, "perRun");
			Objects.requireNonNull(perThread, "perThread");
			Objects.requireNonNull(perPrincipalPerDay, "perPrincipalPerDay");
			Objects.requireNonNull(currency, "currency");
			Map<String, ModelPrice> lowerCase = new LinkedHashMap<>();
			prices.forEach((model, price) -> lowerCase.put(model.toLowerCase(Locale.ROOT), price));
			prices = Map.copyOf(lowerCase);
			if ((perRun.limitsCost() || perThread.limitsCost() || perPrincipalPerDay.limitsCost())
					&& prices.isEmpty()) {
				throw new InvalidPolicyException("prices", "A cost budget needs the price of at least one model");
			}
		}

		/**
		 * Whether cost is counted at all: some model has a price.
		 * @return {@code true} with prices
		 */
		public boolean tracksCost() {
			return !this.prices.isEmpty();
		}

		/**
		 * The price of a model: the price of its name, or of the name its dated version
		 * starts with.
		 * @param model the model's name as its response gives it, or {@code null}
		 * @return the price, or {@code null} when the model has none
		 */
		public @Nullable ModelPrice priceOf(@Nullable String model) {
			if (model == null) {
				return null;
			}
			String name = model.toLowerCase(Locale.ROOT);
			ModelPrice price = this.prices.get(name);
			if (price != null) {
				return price;
			}
			Matcher dated = DATED_VERSION.matcher(name);
			return dated.matches() ? this.prices.get(dated.group(1)) : null;
		}

	}

	/**
	 * What a run, a thread or a principal's day has spent.
	 *
	 * @param tokens all tokens, as the models reported them
	 * @param inputTokens the input (prompt) tokens
	 * @param outputTokens the output (completion) tokens
	 * @param cost the cost of the responses of priced models, in the policy's currency
	 * @param unknownUsage how many responses reported no usage (counted, never guessed)
	 * @param unpriced how many responses had no cost because their usage or their model's
	 * price was unknown (only while prices are configured)
	 */
	public record Spending(long tokens, long inputTokens, long outputTokens, BigDecimal cost, long unknownUsage,
			long unpriced) {

		/** Nothing spent. */
		public static final Spending NONE = new Spending(0, 0, 0, BigDecimal.ZERO, 0, 0);

		/**
		 * Validates the components.
		 */
		public Spending {
			Objects.requireNonNull(cost, "cost");
		}

		Spending plus(Spending other) {
			return new Spending(this.tokens + other.tokens, this.inputTokens + other.inputTokens,
					this.outputTokens + other.outputTokens, this.cost.add(other.cost),
					this.unknownUsage + other.unknownUsage, this.unpriced + other.unpriced);
		}

		// The JSON-friendly form in the thread store; the cost as text, so that no store
		// rounds it.
		Map<String, Object> toMap() {
			Map<String, Object> map = new LinkedHashMap<>();
			map.put("tokens", this.tokens);
			map.put("inputTokens", this.inputTokens);
			map.put("outputTokens", this.outputTokens);
			map.put("cost", this.cost.toPlainString());
			map.put("unknownUsage", this.unknownUsage);
			map.put("unpriced", this.unpriced);
			return map;
		}

		static Spending of(@Nullable Object stored) {
			if (!(stored instanceof Map<?, ?> map)) {
				return NONE;
			}
			Object cost = map.get("cost");
			return new Spending(count(map.get("tokens")), count(map.get("inputTokens")), count(map.get("outputTokens")),
					(cost != null) ? new BigDecimal(cost.toString()) : BigDecimal.ZERO, count(map.get("unknownUsage")),
					count(map.get("unpriced")));
		}

		private static long count(@Nullable Object value) {
			return (value instanceof Number number) ? number.longValue() : 0;
		}

	}

}
