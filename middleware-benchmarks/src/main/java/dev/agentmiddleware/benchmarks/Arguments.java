package dev.agentmiddleware.benchmarks;

/**
 * Distinct JSON arguments for the benchmark tools, so that every call is a cache miss:
 * far more of them than the cache holds, cycled through.
 */
final class Arguments {

	static final int COUNT = 1 << 16;

	private Arguments() {
	}

	static String[] distinct(String tool) {
		String[] json = new String[COUNT];
		for (int i = 0; i < COUNT; i++) {
			json[i] = tool.equals("echo") ? BenchmarkTools.ECHO_JSON.replace("hello", "hello-" + i)
					: BenchmarkTools.TRIP_JSON.replace("Porto", "Porto-" + i);
		}
		return json;
	}

	static String same(String tool) {
		return tool.equals("echo") ? BenchmarkTools.ECHO_JSON : BenchmarkTools.TRIP_JSON;
	}

}
