package dev.agentmiddleware.tool;

import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The numbering of {@link ToolInvocation#callId() call ids}, unique within the running
 * JVM: per thread, so that numbering a call writes nothing shared (the thread's number is
 * in the upper bits), and formatted on first use, since most calls never need their id.
 */
final class CallIds {

	private static final String PREFIX = Long.toHexString(ThreadLocalRandom.current().nextLong() >>> 16);

	private static final AtomicLong THREAD_NUMBERS = new AtomicLong();

	private static final ThreadLocal<long[]> COUNTER = ThreadLocal
		.withInitial(() -> new long[] { THREAD_NUMBERS.incrementAndGet() << 40 });

	private CallIds() {
	}

	static long next() {
		return ++COUNTER.get()[0];
	}

	static String format(long number) {
		return PREFIX + "-" + Long.toHexString(number);
	}

}
