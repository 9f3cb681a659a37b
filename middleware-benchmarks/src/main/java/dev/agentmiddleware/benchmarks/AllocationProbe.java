package dev.agentmiddleware.benchmarks;

import java.lang.management.ManagementFactory;
import java.util.HashMap;
import java.util.Map;

import com.sun.management.ThreadMXBean;
import dev.agentmiddleware.spring.ai.AgentToolCallback;
import org.springframework.ai.chat.model.ToolContext;
import org.springframework.ai.tool.ToolCallback;
import org.springframework.context.annotation.AnnotationConfigApplicationContext;
import org.springframework.core.env.MapPropertySource;

public class AllocationProbe {
	public static void main(String[] args) throws Exception {
		String[] features = {"none", "observation", "logging", "cache", "retry", "rate-limit", "all"};
		for (String only : features) {
			Map<String, Object> props = new HashMap<>(BenchmarkContexts.DEFAULT_STACK_PROPERTIES);
			for (String f : new String[] {"observation", "logging", "cache", "retry", "rate-limit"}) {
				if (!only.equals("all") && !only.equals(f)) props.put("agent.middleware." + f + ".enabled", "false");
			}
			AnnotationConfigApplicationContext context = BenchmarkContexts.startWith(props);
			ToolCallback cb = BenchmarkContexts.callback(context, args.length > 0 ? args[0] : "echo");
			String[] distinct = Arguments.distinct(args.length > 0 ? args[0] : "echo");
			String same = Arguments.same(args.length > 0 ? args[0] : "echo");
			ToolContext session = new ToolContext(Map.of(AgentToolCallback.SESSION_ID_KEY, "s"));
			ThreadMXBean mx = (ThreadMXBean) ManagementFactory.getThreadMXBean();
			long tid = Thread.currentThread().getId();
			for (int i = 0; i < 200000; i++) { cb.call(distinct[i & 0xffff], session); cb.call(same, session); }
			int n = 100000;
			long b0 = mx.getThreadAllocatedBytes(tid);
			for (int i = 0; i < n; i++) cb.call(distinct[i & 0xffff], session);
			long b1 = mx.getThreadAllocatedBytes(tid);
			for (int i = 0; i < n; i++) cb.call(same, session);
			long b2 = mx.getThreadAllocatedBytes(tid);
			System.out.printf("%-12s miss %6d B/op   hit %6d B/op%n", only, (b1 - b0) / n, (b2 - b1) / n);
			context.close();
		}
	}
}
