package dev.agentmiddleware.cache;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

import dev.agentmiddleware.cache.CachePolicy.CacheScope;
import dev.agentmiddleware.cache.ToolResultCache.CacheStatistics;
import dev.agentmiddleware.chain.ToolPipeline;
import dev.agentmiddleware.tool.ToolDescriptor;
import dev.agentmiddleware.tool.ToolInvocation;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class ToolResultCacheTests {

	private static final ToolDescriptor READ_FILE = ToolDescriptor.builder("read_file").readOnly(true).build();

	private final AtomicInteger executions = new AtomicInteger();

	private final ToolResultCache results = ToolResultCache.create();

	@Test
	void middlewareSharingTheStorageShareResultsAndItsInvalidation() throws Exception {
		ToolPipeline first = pipeline(CacheMiddleware.builder().cache(this.results).build());
		ToolPipeline second = pipeline(CacheMiddleware.builder().cache(this.results).build());
		first.call(read("/a"));
		second.call(read("/a"));
		assertThat(this.executions).hasValue(1);
		this.results.invalidate("read_file", Map.of("path", "/a"));
		second.call(read("/a"));
		assertThat(this.executions).hasValue(2);
		assertThat(this.results.statistics().get("read_file")).isEqualTo(new CacheStatistics(1, 2, 0, 1));
	}

	@Test
	void rebuildingWithTheSamePolicyKeepsEntriesAndAnotherPolicyReplacesThem() throws Exception {
		pipeline(CacheMiddleware.builder().cache(this.results).build()).call(read("/a"));
		pipeline(CacheMiddleware.builder().cache(this.results).build()).call(read("/a"));
		assertThat(this.executions).hasValue(1);
		CachePolicy shorter = new CachePolicy(Duration.ofSeconds(5), 10, CacheScope.SESSION);
		pipeline(CacheMiddleware.builder().cache(this.results).defaultPolicy(shorter).build()).call(read("/a"));
		assertThat(this.executions).hasValue(2);
		assertThat(this.results.policies()).containsExactly(Map.entry("read_file", shorter));
	}

	@Test
	void aMiddlewareWithoutStorageGetsItsOwn() throws Exception {
		pipeline(CacheMiddleware.builder().build()).call(read("/a"));
		pipeline(CacheMiddleware.builder().build()).call(read("/a"));
		assertThat(this.executions).hasValue(2);
		assertThat(this.results.statistics()).isEmpty();
	}

	@Test
	void invalidationsAreToldInAFormThatTravelsAndApplyOnAnotherCache() throws Exception {
		List<CacheInvalidation> told = new ArrayList<>();
		ToolResultCache here = ToolResultCache.builder().onInvalidation(told::add).build();
		ToolPipeline there = pipeline(CacheMiddleware.builder().cache(this.results).build());
		there.call(read("/a"));
		there.call(read("/b"));
		here.invalidate("read_file", Map.of("path", "/a"));
		assertThat(told).singleElement().satisfies((invalidation) -> {
			assertThat(invalidation.toolName()).isEqualTo("read_file");
			assertThat(invalidation.argumentsHash()).hasSize(64).doesNotContain("/a");
		});
		this.results.apply(told.get(0));
		there.call(read("/a"));
		there.call(read("/b"));
		assertThat(this.executions).as("only /a was read again").hasValue(3);
	}

	@Test
	void aPredicateInvalidationTravelsAsItsWholeToolEvenWhenItRemovedNothingHere() throws Exception {
		List<CacheInvalidation> told = new ArrayList<>();
		ToolResultCache here = ToolResultCache.builder().onInvalidation(told::add).build();
		ToolPipeline there = pipeline(CacheMiddleware.builder().cache(this.results).build());
		there.call(read("/a"));
		here.invalidate("read_file", (arguments) -> "/a".equals(arguments.get("path")));
		here.invalidateAll();
		assertThat(told).containsExactly(CacheInvalidation.tool("read_file"), CacheInvalidation.allTools());
		this.results.apply(told.get(0));
		there.call(read("/a"));
		assertThat(this.executions).hasValue(2);
	}

	@Test
	void appliedInvalidationsAreNotToldAgain() throws Exception {
		List<CacheInvalidation> told = new ArrayList<>();
		ToolResultCache cache = ToolResultCache.builder().onInvalidation(told::add).build();
		cache.apply(CacheInvalidation.tool("read_file"));
		cache.apply(CacheInvalidation.allTools());
		assertThat(told).isEmpty();
	}

	private ToolPipeline pipeline(CacheMiddleware cache) {
		return ToolPipeline.builder(READ_FILE, (invocation) -> "content #" + this.executions.incrementAndGet())
			.middleware(cache)
			.build();
	}

	private static ToolInvocation read(String path) {
		return ToolInvocation.builder(READ_FILE).argument("path", path).sessionId("s1").build();
	}

}
