package dev.agentmiddleware.testsupport;

import java.util.List;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.slf4j.LoggerFactory;

/**
 * Captures what one logger writes during each test, instead of printing it in the build:
 * the logger is set to the given level and stops passing its events to the root logger
 * until the test ends. <pre>{@code
 * &#64;RegisterExtension
 * final CapturedLog log = CapturedLog.of(LoggingMiddleware.DEFAULT_LOGGER_NAME, Level.INFO);
 *
 *

&#64;Test
 * void logsOneLinePerCall() {
 *     pipeline.call(invocation);
 *     assertThat(this.log.events()).singleElement()
 *         .satisfies((event) -> assertThat(event.getFormattedMessage()).contains("outcome=succeeded"));
 * }
 * }</pre> Outside JUnit's extension model, {@link #start()} and {@link #stop()} do the
 * same by hand. Events are prepared for deferred processing as they arrive, so their MDC
 * and arguments are those of the moment they were logged.
 */
public final class CapturedLog implements BeforeEachCallback, AfterEachCallback {

	private final Logger logger;

	private final Level level;

	private final ListAppender<ILoggingEvent> appender = new ListAppender<>() {

		@Override
		protected void append(ILoggingEvent event) {
			event.prepareForDeferredProcessing();
			super.append(event);
		}

	};

	private CapturedLog(Logger logger, Level level) {
		this.logger = logger;
		this.level = level;
	}

	/**
	 * Captures a logger by name.
	 * @param loggerName the logger's name
	 * @param level the level the logger is set to while capturing
	 * @return the capture, not yet started
	 */
	public static CapturedLog of(String loggerName, Level level) {
		return new CapturedLog((Logger) LoggerFactory.getLogger(loggerName), level);
	}

	/**
	 * Captures the logger of a class.
	 * @param loggerOwner the class whose logger is captured
	 * @param level the level the logger is set to while capturing
	 * @return the capture, not yet started
	 */
	public static CapturedLog of(Class<?> loggerOwner, Level level) {
		return of(loggerOwner.getName(), level);
	}

	/**
	 * Starts capturing: sets the level and keeps the events from the root logger.
	 */
	public void start() {
		this.appender.list.clear();
		this.appender.start();
		this.logger.addAppender(this.appender);
		this.logger.setLevel(this.level);
		this.logger.setAdditive(false);
	}

	/**
	 * Stops capturing and gives the logger back its configured level and root appenders;
	 * the events stay readable.
	 */
	public void stop() {
		this.logger.detachAppender(this.appender);
		this.appender.stop();
		this.logger.setLevel(null);
		this.logger.setAdditive(true);
	}

	/**
	 * The captured logger, for a test that changes its level midway.
	 * @return the logger
	 */
	public Logger logger() {
		return this.logger;
	}

	/**
	 * The events captured so far, oldest first; a live list that a test may clear.
	 * @return the events
	 */
	public List<ILoggingEvent> events() {
		return this.appender.list;
	}

	@Override
	public void beforeEach(ExtensionContext context) {
		start();
	}

	@Override
	public void afterEach(ExtensionContext context) {
		stop();
	}

}
