package dev.agentmiddleware.autoconfigure.mcp;

import java.util.Locale;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

import dev.agentmiddleware.tool.SessionFingerprint;
import dev.agentmiddleware.tool.ToolPrincipal;
import io.modelcontextprotocol.server.McpSyncServerExchange;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.util.ClassUtils;

/**
 * Counts and logs the requests for resources, prompts and completions served through our
 * MCP server, as tool calls are: one log line per request at {@code INFO} (the method,
 * what it asked for, the session's fingerprint, the principal's name, the outcome and the
 * duration) and, with Micrometer, a timer {@code agent.mcp.request} tagged
 * {@code mcp.method}, {@code mcp.target} (the resource's URI or URI template, the
 * prompt's name, the reference completed) and {@code outcome} ({@code success} or
 * {@code error}). Who may send them is decided where tool calls' senders are, by the
 * transport and the endpoint's security: an authenticated principal when the endpoint is
 * secured, the session only to the principal that started it. <pre>{@code
 * mcp=resources/read target=test://static-text session=sid-1a2b3c4d5e principal=alice outcome=success duration_ms=0.412
 * }</pre>
 */
final class McpFeatureRequests {

	private static final Logger logger = LoggerFactory.getLogger(McpFeatureRequests.class);

	private static final String METER_REGISTRY = "io.micrometer.core.instrument.MeterRegistry";

	private final @Nullable Meter meter;

	private final LongSupplier nanoTime;

	McpFeatureRequests(@Nullable Meter meter, LongSupplier nanoTime) {
		this.meter = meter;
		this.nanoTime = nanoTime;
	}

	static McpFeatureRequests of(ListableBeanFactory beanFactory) {
		Meter meter = ClassUtils.isPresent(METER_REGISTRY, McpFeatureRequests.class.getClassLoader())
				? new McpFeatureMeter(beanFactory) : null;
		return new McpFeatureRequests(meter, System::nanoTime);
	}

	/**
	 * Serves a request, counting and logging it.
	 * @param <T> the result type
	 * @param method the MCP method, such as {@code resources/read}
	 * @param target what the request asks for
	 * @param exchange the request's exchange, for its session and principal
	 * @param request serves the request
	 * @return the result
	 */
	<T> T serve(String method, String target, McpSyncServerExchange exchange, Supplier<T> request) {
		long start = this.nanoTime.getAsLong();
		Throwable failure = null;
		try {
			return request.get();
		}
		catch (RuntimeException | Error ex) {
			failure = ex;
			throw ex;
		}
		finally {
			long nanos = Math.max(0, this.nanoTime.getAsLong() - start);
			String outcome = (failure != null) ? "error" : "success";
			record(method, target, outcome, nanos);
			log(method, target, exchange, outcome, nanos, failure);
		}
	}

	private void record(String method, String target, String outcome, long nanos) {
		if (this.meter != null) {
			try {
				this.meter.record(method, target, outcome, nanos);
			}
			catch (RuntimeException ex) {
				logger.warn("Could not count a {} request: {}", method, ex.toString());
			}
		}
	}

	private void log(String method, String target, McpSyncServerExchange exchange, String outcome, long nanos,
			@Nullable Throwable failure) {
		if (!logger.isInfoEnabled()) {
			return;
		}
		ToolPrincipal principal = McpPrincipals.of(exchange.transportContext());
		StringBuilder line = new StringBuilder(128).append("mcp=")
			.append(method)
			.append(" target=")
			.append(McpLogText.of(target))
			.append(" session=")
			.append(SessionFingerprint.of(exchange.sessionId()));
		if (principal != null) {
			line.append(" principal=").append(McpLogText.of(principal.name()));
		}
		line.append(" outcome=").append(outcome).append(" duration_ms=");
		line.append(String.format(Locale.ROOT, "%.3f", nanos / 1_000_000.0));
		if (failure != null) {
			line.append(" error_type=").append(failure.getClass().getSimpleName());
		}
		logger.info(line.toString());
	}

	/**
	 * Where the requests are counted.
	 */
	interface Meter {

		void record(String method, String target, String outcome, long nanos);

	}

}
