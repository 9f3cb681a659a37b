package dev.agentmiddleware.chain;

import org.jspecify.annotations.Nullable;

/**
 * What is bound to one thread while a pipeline's call runs on it: the {@link ToolCall} of
 * the layers that read outcomes, and the caller's {@link CallCancellation}. One holder
 * per thread whose fields bind and unbind them, so that a call costs one thread-local
 * look-up for both and no {@code ThreadLocal.set}, which probes the thread's map and
 * clears stale entries it meets; binding allocates nothing. Only the owning thread reads
 * or writes the fields.
 */
final class ThreadBinding {

	private static final ThreadLocal<ThreadBinding> CURRENT = ThreadLocal.withInitial(ThreadBinding::new);

	/**
	 * The running call, or {@code null} when no layer of the running pipeline reads
	 * outcomes.
	 */
	@Nullable ToolCall call;

	/**
	 * The cancellation of the running call, or {@code null} when the caller gave none.
	 */
	@Nullable CallCancellation cancellation;

	private ThreadBinding() {
	}

	static ThreadBinding current() {
		return CURRENT.get();
	}

}
