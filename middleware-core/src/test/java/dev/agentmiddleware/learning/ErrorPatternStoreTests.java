package dev.agentmiddleware.learning;

import java.io.IOException;
import java.net.SocketTimeoutException;
import java.nio.file.AccessDeniedException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import dev.agentmiddleware.binding.InvalidToolArgumentsException;
import dev.agentmiddleware.learning.ErrorPatternStore.ErrorPatternStatistics;
import dev.agentmiddleware.learning.ErrorPatternStore.ToolFailureStatistics;
import dev.agentmiddleware.ratelimit.ToolRateLimitedException;
import dev.agentmiddleware.testsupport.MutableClock;
import dev.agentmiddleware.timeout.ToolTimeoutException;
import dev.agentmiddleware.tool.ToolMiddlewareException;
import dev.agentmiddleware.tool.CallOutcome;
import dev.agentmiddleware.tool.ToolDeniedException;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.tuple;

class ErrorPatternStoreTests {

	private static final Instant START = Instant.parse("2025-03-01T10:15:30Z");

	private final MutableClock clock = new MutableClock(START);

	private final ErrorPatternStore store = ErrorPatternStore.builder().clock(this.clock).build();

	@Test
	void messagesThatDifferOnlyInIdsPathsNumbersAndTimestampsAreOnePattern() {
		fail("read_file",
				new IOException("Request 3f2a9c1e-7b4d-4e2a-9f1c-2d3e4f5a6b7c failed at 2025-03-01T10:15:30Z: "
						+ "cannot open /home/alice/reports/q1.csv (attempt 3 of 5, object 0x7ffe12ab)"));
		fail("read_file",
				new IOException("Request 0b1c2d3e-4f5a-4b6c-8d7e-9f0a1b2c3d4e failed at 2025-04-12T08:01:02.345+02:00: "
						+ "cannot open /var/data/x.csv (attempt 1 of 5, object 0xdeadbeef)"));
		assertThat(this.store.size()).isOne();
		assertThat(this.store.topPatterns(10)).singleElement().satisfies((pattern) -> {
			assertThat(pattern.pattern())
				.isEqualTo("Request <id> failed at <time>: cannot open <path> (attempt <n> of <n>, object <id>)");
			assertThat(pattern.occurrences()).isEqualTo(2);
			assertThat(pattern.errorType()).isEqualTo("IOException");
		});
	}

	@Test
	void windowsPathsUrlsQuotedValuesHexIdsAndEmailsAreNormalised() {
		assertThat(this.store.normalise("Cannot read C:\\Users\\bob\\notes.txt, see https://example.com/a?id=42."))
			.isEqualTo("Cannot read <path>, see <url>.");
		assertThat(
				this.store.normalise("No user 'alice' or \"bob smith\" with key a1b2c3d4e5f6 (mail: bob@example.org)"))
			.isEqualTo("No user '<value>' or '<value>' with key <id> (mail: <email>)");
		assertThat(this.store.normalise("order ord_8f3k2j9x2 not found; user42 has 17 items at 10:15:30"))
			.isEqualTo("order <id> not found; user<n> has <n> items at <time>");
		assertThat(this.store.normalise("  read/write   failed and/or skipped  "))
			.isEqualTo("read/write failed and/or skipped");
		assertThat(this.store.normalise(null)).isEqualTo("(no message)");
		assertThat(this.store.normalise("x".repeat(1000))).hasSize(ErrorPatternStore.MAX_PATTERN_LENGTH);
	}

	@Test
	void secretsInMessagesNeverReachAPattern() {
		fail("login", new IllegalStateException("login failed: password=hunter2, Authorization: Bearer abc.def.ghi"));
		assertThat(this.store.topPatterns(1).get(0).pattern()).doesNotContain("hunter2", "abc.def.ghi");
	}

	@Test
	void secretsInUrlsNeverReachAPatternButFileNamesDo() {
		fail("fetch", new IllegalStateException("GET https://ada:pw-42@api.example.org/v1?api_key=k-99 failed"));
		fail("read_file", new IllegalStateException("NoSuchFileException: my-secret-notes.txt: no such file"));
		assertThat(this.store.patternsOf("fetch").get(0).pattern()).doesNotContain("pw-42", "k-99", "ada");
		assertThat(this.store.patternsOf("read_file").get(0).pattern())
			.isEqualTo("NoSuchFileException: my-secret-notes.txt: no such file");
	}

	@Test
	void argumentValuesRepeatedInTheMessageNeverReachAPattern() {
		this.store.onToolResult("s", "login",
				Map.of("user", "alice", "password", "swordfish", "options", Map.of("hints", List.of("my cat's name"))),
				null, new IllegalStateException("wrong password swordfish for alice (hint: my cat's name)"));
		assertThat(this.store.topPatterns(1).get(0).pattern())
			.isEqualTo("wrong password <arg> for <arg> (hint: <arg>)");
	}

	@Test
	void shortArgumentValuesNeverReachAPatternEither() {
		this.store.onToolResult("s", "unlock", Map.of("pin", "zq", "code", "KQW", "note", "ab"), null,
				new IllegalStateException("pin zq and code KQW rejected; note ab, about absent tabs"));
		assertThat(this.store.topPatterns(1).get(0).pattern())
			.isEqualTo("pin <arg> and code <arg> rejected; note <arg>, about absent tabs")
			.doesNotContain("zq", "KQW");
	}

	@Test
	void errorsAreClassifiedByTypeFirst() {
		assertThat(ErrorCategory.of(new ToolTimeoutException("t", "timeout", Duration.ofSeconds(1))))
			.isEqualTo(ErrorCategory.TIMEOUT);
		assertThat(ErrorCategory.of(new TimeoutException())).isEqualTo(ErrorCategory.TIMEOUT);
		assertThat(ErrorCategory.of(new SocketTimeoutException())).isEqualTo(ErrorCategory.TIMEOUT);
		assertThat(ErrorCategory.of(new ToolDeniedException("t", "approval", "no approver configured")))
			.isEqualTo(ErrorCategory.PERMISSION);
		assertThat(ErrorCategory.of(new SecurityException())).isEqualTo(ErrorCategory.PERMISSION);
		assertThat(ErrorCategory.of(new AccessDeniedException("/etc/shadow"))).isEqualTo(ErrorCategory.PERMISSION);
		assertThat(ErrorCategory.of(new ToolRateLimitedException("t", "rate-limit", "5 per 1s", Duration.ofSeconds(1))))
			.isEqualTo(ErrorCategory.RATE_LIMIT);
		assertThat(ErrorCategory.of(new InvalidToolArgumentsException("t", "city", "is required")))
			.isEqualTo(ErrorCategory.INVALID_ARGUMENTS);
		assertThat(ErrorCategory.of(new IllegalArgumentException("timeout must be positive")))
			.as("the type wins over a keyword")
			.isEqualTo(ErrorCategory.INVALID_ARGUMENTS);
		assertThat(ErrorCategory.of(new RuntimeException("wrapped", new TimeoutException())))
			.isEqualTo(ErrorCategory.TIMEOUT);
		assertThat(ErrorCategory.of(new IllegalStateException("boom"))).isEqualTo(ErrorCategory.TOOL_ERROR);
	}

	@Test
	void theChainsOwnFailuresAreClassifiedByTheirOutcome() {
		ToolMiddlewareException quotaSpent = new ToolMiddlewareException("t", "quota",
				"Tool 't' has spent its monthly budget", null, false) {

			@Override
			public CallOutcome outcome() {
				return CallOutcome.RATE_LIMITED;
			}

		};
		assertThat(ErrorCategory.of(quotaSpent)).as("a refusal the learning knows only by its outcome")
			.isEqualTo(ErrorCategory.RATE_LIMIT);
	}

	@Test
	void errorsOfOtherTypesAreClassifiedByKeywords() {
		assertThat(ErrorCategory.of(new IOException("Read timed out"))).isEqualTo(ErrorCategory.TIMEOUT);
		assertThat(ErrorCategory.of(new IOException("HTTP 429 Too Many Requests"))).isEqualTo(ErrorCategory.RATE_LIMIT);
		assertThat(ErrorCategory.of(new IOException("API quota exceeded"))).isEqualTo(ErrorCategory.RATE_LIMIT);
		assertThat(ErrorCategory.of(new IOException("HTTP 403 Forbidden"))).isEqualTo(ErrorCategory.PERMISSION);
		assertThat(ErrorCategory.of(new IOException("Permission denied"))).isEqualTo(ErrorCategory.PERMISSION);
		assertThat(ErrorCategory.of(new IOException("Missing required field 'city'")))
			.isEqualTo(ErrorCategory.INVALID_ARGUMENTS);
		assertThat(ErrorCategory.of(new IOException("Connection refused"))).isEqualTo(ErrorCategory.TOOL_ERROR);
		assertThat(ErrorCategory.of(new IOException("error 14290 in step 4030"))).isEqualTo(ErrorCategory.TOOL_ERROR);
	}

	@Test
	void storedPatternCarriesItsCategoryAndSeenTimes() {
		fail("search", new ToolRateLimitedException("search", "rate-limit", "5 per 1s", Duration.ofSeconds(1)));
		this.clock.advance(Duration.ofMinutes(1));
		fail("search", new ToolRateLimitedException("search", "rate-limit", "5 per 1s", Duration.ofSeconds(3)));
		assertThat(this.store.patternsOf("search")).singleElement().satisfies((pattern) -> {
			assertThat(pattern.category()).isEqualTo(ErrorCategory.RATE_LIMIT);
			assertThat(pattern.firstSeen()).isEqualTo(START);
			assertThat(pattern.lastSeen()).isEqualTo(START.plusSeconds(60));
		});
	}

	@Test
	void successAfterAFailureIsRecordedAsARecoveryOfThatPattern() {
		fail("fetch", new IOException("Read timed out after 3000 ms"));
		fail("fetch", new IOException("Read timed out after 5000 ms"));
		this.clock.advance(Duration.ofSeconds(5));
		succeed("fetch");
		succeed("fetch");
		assertThat(this.store.patternsOf("fetch")).singleElement().satisfies((pattern) -> {
			assertThat(pattern.recoveries()).as("one recovery, however many successes follow").isOne();
			assertThat(pattern.lastRecoveredAt()).isEqualTo(START.plusSeconds(5));
			assertThat(pattern.category()).isEqualTo(ErrorCategory.TIMEOUT);
		});
		assertThat(this.store.topFailingTools(5)).singleElement()
			.isEqualTo(new ToolFailureStatistics("fetch", 2, 2, 1, "Read timed out after <n> ms", ErrorCategory.TIMEOUT,
					START, false));
	}

	@Test
	void successWithoutAPreviousFailureIsNoRecovery() {
		succeed("fetch");
		assertThat(this.store.topFailingTools(5)).isEmpty();
		assertThat(this.store.statisticsOf("fetch"))
			.isEqualTo(new ToolFailureStatistics("fetch", 0, 1, 0, null, null, null, false));
	}

	@Test
	void wrappersAreUnwrappedToTheRealError() {
		fail("fetch", new CompletionException(new SocketTimeoutException("connect timed out")));
		assertThat(this.store.patternsOf("fetch")).singleElement().satisfies((pattern) -> {
			assertThat(pattern.errorType()).isEqualTo("SocketTimeoutException");
			assertThat(pattern.pattern()).isEqualTo("connect timed out");
		});
	}

	@Test
	void topListsAreOrderedByFrequencyAndLimited() {
		for (int i = 0; i < 3; i++) {
			fail("a", new IOException("disk full"));
		}
		fail("b", new IOException("disk full"));
		fail("b", new IllegalStateException("boom"));
		fail("b", new IllegalStateException("boom"));
		fail("c", new IOException("gone"));
		assertThat(this.store.topPatterns(2))
			.extracting(ErrorPatternStatistics::tool, ErrorPatternStatistics::occurrences)
			.containsExactly(tuple("a", 3L), tuple("b", 2L));
		assertThat(this.store.topFailingTools(2)).extracting(ToolFailureStatistics::tool).containsExactly("a", "b");
		assertThat(this.store.patternsOf("b")).extracting(ErrorPatternStatistics::pattern)
			.containsExactly("boom", "disk full");
		assertThatIllegalArgumentException().isThrownBy(() -> this.store.topPatterns(-1)).withMessageContaining("-1");
	}

	@Test
	void memoryStaysBoundedUnderTenThousandDistinctErrors() {
		ErrorPatternStore bounded = ErrorPatternStore.builder().maxPatterns(100).clock(this.clock).build();
		for (int i = 0; i < 10_000; i++) {
			bounded.onToolResult(null, "tool", Map.of(), null, new IOException("unknown module " + letters(i)));
		}
		assertThat(bounded.size()).isEqualTo(100);
		assertThat(bounded.evictedPatterns()).isEqualTo(9_900);
		assertThat(bounded.topPatterns(1_000)).hasSize(100)
			.as("the least recently seen are evicted first")
			.extracting(ErrorPatternStatistics::pattern)
			.contains("unknown module " + letters(9_999))
			.doesNotContain("unknown module " + letters(0));
		assertThat(bounded.statisticsOf("tool").failures()).isEqualTo(10_000);
	}

	@Test
	void theNumberOfToolsIsBoundedToo() {
		ErrorPatternStore bounded = ErrorPatternStore.builder().maxTools(10).clock(this.clock).build();
		for (int i = 0; i < 1_000; i++) {
			bounded.onToolResult(null, "tool_" + letters(i), Map.of(), "ok", null);
		}
		assertThat(bounded.statisticsOf("tool_" + letters(999))).isNotNull();
		assertThat(bounded.statisticsOf("tool_" + letters(0))).isNull();
	}

	@Test
	void concurrentFeedingAndReadingLosesNoCount() throws Exception {
		int threads = 4;
		int callsPerThread = 2_000;
		ExecutorService executor = Executors.newFixedThreadPool(threads + 1);
		try {
			CountDownLatch start = new CountDownLatch(1);
			List<Future<?>> futures = new ArrayList<>();
			for (int t = 0; t < threads; t++) {
				String tool = "tool_" + letters(t);
				futures.add(executor.submit(() -> {
					start.await();
					for (int i = 0; i < callsPerThread; i++) {
						if (i % 2 == 0) {
							this.store.onToolResult("s", tool, Map.of(), null,
									new IOException("failure " + letters(i % 7) + " at /tmp/" + i));
						}
						else {
							this.store.onToolResult("s", tool, Map.of(), "ok", null);
						}
					}
					return null;
				}));
			}
			futures.add(executor.submit(() -> {
				start.await();
				for (int i = 0; i < 200; i++) {
					assertThat(this.store.topPatterns(5)).hasSizeLessThanOrEqualTo(5);
					assertThat(this.store.topFailingTools(10)).hasSizeLessThanOrEqualTo(threads);
				}
				return null;
			}));
			start.countDown();
			for (Future<?> future : futures) {
				future.get(30, TimeUnit.SECONDS);
			}
		}
		finally {
			executor.shutdownNow();
		}
		assertThat(this.store.size()).isEqualTo(threads * 7);
		assertThat(this.store.topPatterns(100).stream().mapToLong(ErrorPatternStatistics::occurrences).sum())
			.isEqualTo(threads * callsPerThread / 2);
		assertThat(this.store.topFailingTools(10)).hasSize(threads).allSatisfy((tool) -> {
			assertThat(tool.failures()).isEqualTo(callsPerThread / 2);
			assertThat(tool.successes()).isEqualTo(callsPerThread / 2);
			assertThat(tool.recoveries()).isEqualTo(callsPerThread / 2);
		});
	}

	@Test
	void builderRejectsNonPositiveBounds() {
		assertThatIllegalArgumentException().isThrownBy(() -> ErrorPatternStore.builder().maxPatterns(0))
			.withMessage("maxPatterns must be at least 1, was 0");
		assertThatIllegalArgumentException().isThrownBy(() -> ErrorPatternStore.builder().maxTools(0))
			.withMessage("maxTools must be at least 1, was 0");
	}

	private void fail(String tool, Throwable error) {
		this.store.onToolResult("session-1", tool, Map.of("path", "/secret/value"), null, error);
	}

	private void succeed(String tool) {
		this.store.onToolResult("session-1", tool, Map.of(), "ok", null);
	}

	// Distinct words without digits, so that normalisation keeps them apart.
	private static String letters(int value) {
		StringBuilder text = new StringBuilder();
		int rest = value;
		do {
			text.append((char) ('a' + rest % 26));
			rest /= 26;
		}
		while (rest > 0);
		return text.toString();
	}

}
