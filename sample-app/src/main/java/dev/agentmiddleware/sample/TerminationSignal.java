package dev.agentmiddleware.sample;

import sun.misc.Signal;

/**
 * Makes {@code kill <pid>} (SIGTERM) a normal end of the sample: the JVM still runs its
 * shutdown hooks (Spring's graceful shutdown included), but exits with status 0 instead
 * of 143. Under {@code ./mvnw spring-boot:run} the JVM's 143 made Maven report the
 * stopped app as "BUILD FAILURE ... Process terminated with exit code: 143", though being
 * stopped is what an operator asked for. SIGINT (Ctrl+C) keeps the JVM's default.
 */
final class TerminationSignal {

	private TerminationSignal() {
	}

	static void exitNormallyOnSigterm() {
		try {
			Signal.handle(new Signal("TERM"), (signal) -> System.exit(0));
		}
		catch (IllegalArgumentException ex) {
			// No SIGTERM on this platform (or the JVM runs with -Xrs): the JVM's default
			// stays.
		}
	}

}
