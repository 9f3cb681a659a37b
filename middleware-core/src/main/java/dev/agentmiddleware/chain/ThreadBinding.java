package dev.agentmiddleware.chain;

import org.jspecify.annotations.Nullable;

/**
 * What is bound to one thread while a pipeline's call runs on it: its {@link ToolCall},
 * which carries the caller's {@link CallCancellation} too. One holder per thread whose
 * field binds and unbinds it, so that a call costs one thread-local look-up and no
 * {@code ThreadLocal.set}, which probes the thread's map and clears stale entries it
 * meets; binding allocates nothing. Only the owning thread reads or writes the field.
 */
final class ThreadBinding {

	private static final ThreadLocal<ThreadBinding> CURRENT = ThreadLocal.withInitial(ThreadBinding::new);

	/**
	 * The running call, or {@code null} when no layer of the running pipeline reads
	 * outcomes and the call cannot be cancelled.
	 */
	@Nullable ToolCall call;

	private ThreadBinding() {
	}

	static ThreadBinding current() {
		return CURRENT.get();
	}

}
