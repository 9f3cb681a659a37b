package dev.agentmiddleware.chain;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import dev.agentmiddleware.callrecord.ToolCallObserver;
import dev.agentmiddleware.callrecord.ToolCallObserver.ToolCallRecord;
import dev.agentmiddleware.callrecord.ToolCallObservers;
import dev.agentmiddleware.tool.ExecutableTool;
import dev.agentmiddleware.tool.ToolDescriptor;
import dev.agentmiddleware.tool.ToolDescriptor.SafetyLevel;
import dev.agentmiddleware.tool.ToolInvocation;
import dev.agentmiddleware.tool.UnboundArguments;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A {@link ToolInvocation} is a value: running it through a pipeline changes nothing a
 * caller holds; what a call learns while it runs (its bound arguments) lives on the
 * {@link ToolCall}.
 */
class ToolInvocationValueTests {

	private final ToolDescriptor descriptor = ToolDescriptor.builder("echo").safety(SafetyLevel.SAFE).build();

	private final ExecutableTool echo = new ExecutableTool(this.descriptor,
			(invocation) -> invocation.argument("text"));

	@Test
	void theInvocationACallerHoldsShowsTheSameArgumentsBeforeAndAfterBinding() throws Exception {
		List<ToolCallRecord> records = new ArrayList<>();
		try (ToolCallObservers observers = ToolCallObservers.builder().observer(synchronous(records)).build()) {
			ToolPipeline pipeline = ToolPipeline.builder(this.descriptor, this.echo.handler())
				.middleware(List.of(ArgumentBindingMiddleware.INSTANCE))
				.observers(observers)
				.build();
			ToolInvocation sent = ToolInvocation.builder(this.descriptor)
				.arguments(Map.of("text", 42))
				.attribute(UnboundArguments.ATTRIBUTE, new UnboundArguments(() -> Map.of("text", "42")))
				.build();
			Map<String, Object> before = sent.arguments();
			assertThat(pipeline.call(sent)).isEqualTo("42");
			assertThat(sent.arguments()).isSameAs(before).containsEntry("text", 42);
			assertThat(sent.attribute(UnboundArguments.ATTRIBUTE)).isNotNull();
			assertThat(records).singleElement().satisfies((record) -> {
				assertThat(record.invocation().arguments()).containsEntry("text", "42");
				assertThat(record.invocation().attribute(UnboundArguments.ATTRIBUTE)).isNull();
			});
		}
	}

	@Test
	void unboundArgumentsBindEachTimeTheyAreAskedAndKeepNoMemo() {
		List<String> bindings = new ArrayList<>();
		UnboundArguments unbound = new UnboundArguments(() -> {
			bindings.add("bound");
			return Map.of("text", "42");
		});
		ToolInvocation sent = ToolInvocation.builder(this.descriptor)
			.attribute(UnboundArguments.ATTRIBUTE, unbound)
			.build();
		ToolInvocation first = sent.withBoundArguments();
		ToolInvocation second = sent.withBoundArguments();
		assertThat(first.arguments()).isEqualTo(second.arguments()).containsEntry("text", "42");
		assertThat(sent.arguments()).isEmpty();
		assertThat(bindings).hasSize(2);
	}

	@Test
	void theModelsToolCallIdTravelsWithEveryCopyAndIntoTheRecords() throws Exception {
		List<ToolCallRecord> records = new ArrayList<>();
		try (ToolCallObservers observers = ToolCallObservers.builder().observer(synchronous(records)).build()) {
			ToolPipeline pipeline = ToolPipeline.builder(this.descriptor, this.echo.handler())
				.observers(observers)
				.build();
			ToolInvocation call = ToolInvocation.builder(this.descriptor)
				.toolCallId("call_abc")
				.attribute(UnboundArguments.ATTRIBUTE, new UnboundArguments(() -> Map.of("text", "hi")))
				.build();
			assertThat(call.withArgument("text", "x").toolCallId()).isEqualTo("call_abc");
			assertThat(call.withSessionId("s").toolCallId()).isEqualTo("call_abc");
			assertThat(call.withBoundArguments().toolCallId()).isEqualTo("call_abc");
			assertThat(ToolInvocation.builder(this.descriptor).build().toolCallId()).isNull();
			pipeline.call(call);
			assertThat(records).singleElement()
				.satisfies((record) -> assertThat(record.invocation().toolCallId()).isEqualTo("call_abc"));
		}
	}

	private static ToolCallObserver synchronous(List<ToolCallRecord> records) {
		return new ToolCallObserver() {

			@Override
			public void onToolCall(ToolCallRecord record) {
				records.add(record);
			}

			@Override
			public boolean synchronous() {
				return true;
			}

		};
	}

}
