package dev.agentmiddleware.thread;

/**
 * An update of a thread's metadata lost the race against concurrent writers more often than the store retries.
 */
public class ThreadUpdateConflictException extends RuntimeException {

	/**
	 * Creates the exception.
	 * @param threadId the thread
	 * @param attempts how many times the update was tried
	 */
	public ThreadUpdateConflictException(String threadId, int attempts) {
		super("Thread '" + threadId + "' changed concurrently " + attempts
				+ " times while updating its metadata; the update was not applied");
	}

}
