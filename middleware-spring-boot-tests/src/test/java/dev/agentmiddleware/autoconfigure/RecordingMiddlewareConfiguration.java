package dev.agentmiddleware.autoconfigure;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import dev.agentmiddleware.chain.ToolMiddleware;
import dev.agentmiddleware.tool.ToolInvocation;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * A user middleware named {@code recording} that keeps every invocation it sees in a
 * {@link Recorder} bean, so that a test can check what reached the chain. <pre>{@code
 * runner.withUserConfiguration(RecordingMiddlewareConfiguration.class).run((context) ->
 *     assertThat(context.getBean(RecordingMiddlewareConfiguration.Recorder.class).calls).hasSize(1));
 * }</pre>
 */
@Configuration(proxyBeanMethods = false)
public class RecordingMiddlewareConfiguration {

	@Bean
	Recorder recorder() {
		return new Recorder();
	}

	@Bean
	ToolMiddleware recordingMiddleware(Recorder recorder) {
		return ToolMiddleware.named("recording", (tool, next) -> (invocation) -> {
			recorder.calls.add(invocation);
			return next.handle(invocation);
		});
	}

	/** The invocations the recording middleware saw, in order. */
	public static final class Recorder {

		/** The invocations, in the order they reached the middleware. */
		public final List<ToolInvocation> calls = new CopyOnWriteArrayList<>();

	}

}
