package dev.agentmiddleware.sample.counting;

import java.util.Collections;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

import dev.agentmiddleware.chain.ToolMiddleware;
import dev.agentmiddleware.tool.SessionFingerprint;
import dev.agentmiddleware.tool.ToolDescriptor;
import dev.agentmiddleware.tool.ToolHandler;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.stereotype.Component;

/**
 * Counts the calls of every tool and logs each one: an example of a middleware of your
 * own. Declaring it as a bean is all it takes; it joins the chain of every tool.
 *
 * <p>
 * It has no {@code @Order}, so it runs inside the built-in middleware, right around the
 * tool itself. It therefore counts the calls that reach the tool: a call denied by
 * approval, answered from the cache or rejected by a rate limit is not counted, and a
 * call that is retried is counted once per attempt. Give it a low {@code @Order} to count
 * every call instead.
 *
 * <p>
 * {@link #wrap} runs once per tool, when the tool's pipeline is built, so the tool's
 * counter is looked up there and not on every call.
 */
@Component
public final class CallCountingMiddleware implements ToolMiddleware {

	private static final Logger logger = LoggerFactory.getLogger(CallCountingMiddleware.class);

	private final ConcurrentHashMap<String, LongAdder> counts = new ConcurrentHashMap<>();

	@Override
	public ToolHandler wrap(ToolDescriptor tool, ToolHandler next) {
		String name = tool.name();
		LongAdder calls = this.counts.computeIfAbsent(name, (key) -> new LongAdder());
		return (invocation) -> {
			calls.increment();
			logger.info("Tool {} called in session {} ({} calls so far)", name,
					SessionFingerprint.of(invocation.sessionId()), calls.sum());
			return next.handle(invocation);
		};
	}

	/**
	 * The number of calls of one tool so far.
	 * @param tool the tool name
	 * @return the number of calls, 0 for a tool never called or unknown
	 */
	public long count(String tool) {
		LongAdder calls = this.counts.get(tool);
		return (calls != null) ? calls.sum() : 0;
	}

	/**
	 * The number of calls of every tool so far, by tool name.
	 * @return an unmodifiable snapshot, sorted by tool name
	 */
	public Map<String, Long> counts() {
		Map<String, Long> snapshot = new TreeMap<>();
		this.counts.forEach((tool, calls) -> snapshot.put(tool, calls.sum()));
		return Collections.unmodifiableMap(snapshot);
	}

}
