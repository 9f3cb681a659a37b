package dev.agentmiddleware.chain;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

import dev.agentmiddleware.binding.InvalidToolArgumentsException;
import dev.agentmiddleware.callrecord.ToolCallObserver;
import dev.agentmiddleware.callrecord.ToolCallObserver.ToolCallRecord;
import dev.agentmiddleware.callrecord.ToolCallObservers;
import dev.agentmiddleware.tool.CallOutcome;
import dev.agentmiddleware.tool.ExecutableTool;
import dev.agentmiddleware.tool.ToolDescriptor;
import dev.agentmiddleware.tool.ToolDescriptor.SafetyLevel;
import dev.agentmiddleware.tool.ToolHandler;
import dev.agentmiddleware.tool.ToolInvocation;
import dev.agentmiddleware.tool.UnboundArguments;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

class ArgumentBindingMiddlewareTests {

	private final ToolDescriptor descriptor = ToolDescriptor.builder("echo").safety(SafetyLevel.SAFE).build();

	private final AtomicInteger runs = new AtomicInteger();

	private final ExecutableTool echo = new ExecutableTool(this.descriptor, (invocation) -> {
		this.runs.incrementAndGet();
		return invocation.argument("text");
	});

	@Test
	void refusedCallIsObservedWithItsOwnOutcomeAndNeverReachesTheTool() throws Exception {
		List<ToolCallRecord> records = new ArrayList<>();
		try (ToolCallObservers observers = ToolCallObservers.builder().observer(synchronous(records)).build()) {
			ToolPipeline pipeline = ToolPipeline.builder(this.descriptor, this.echo.handler())
				.observers(observers)
				.build();
			ToolInvocation refused = unbound(() -> {
				throw new InvalidToolArgumentsException("echo", "text", "expected a string but got a number");
			});
			assertThatExceptionOfType(InvalidToolArgumentsException.class).isThrownBy(() -> pipeline.call(refused));
			assertThat(records).singleElement()
				.extracting(ToolCallRecord::outcome)
				.isEqualTo(CallOutcome.INVALID_ARGUMENTS);
			assertThat(this.runs).hasValue(0);
		}
	}

	@Test
	void observersAndOuterLayersSeeTheBoundArgumentsOnceBound() throws Exception {
		List<ToolCallRecord> records = new ArrayList<>();
		try (ToolCallObservers observers = ToolCallObservers.builder().observer(synchronous(records)).build()) {
			ToolPipeline pipeline = ToolPipeline.builder(this.descriptor, this.echo.handler())
				.middleware(List.of(ArgumentBindingMiddleware.INSTANCE))
				.observers(observers)
				.build();
			assertThat(pipeline.call(unbound(() -> Map.of("text", "bound")))).isEqualTo("bound");
			assertThat(records).singleElement()
				.satisfies((record) -> assertThat(record.invocation().arguments()).containsEntry("text", "bound"));
		}
	}

	@Test
	void bindsAtItsOrderSoOuterLayersSeeTheCallAsSentAndInnerOnesBound() throws Exception {
		List<String> seen = new ArrayList<>();
		ToolPipeline pipeline = ToolPipeline.chain(this.echo, recording("outer", seen),
				ArgumentBindingMiddleware.INSTANCE, recording("inner", seen));
		Object result = pipeline.call(ToolInvocation.builder(this.descriptor)
			.arguments(Map.of("text", 42))
			.attribute(UnboundArguments.ATTRIBUTE, new UnboundArguments(() -> Map.of("text", "42")))
			.build());
		assertThat(result).isEqualTo("42");
		assertThat(seen).containsExactly("outer:42(Integer)", "inner:42(String)");
		assertThat(pipeline.layers()).as("binding is a step, not a layer").containsExactly("outer", "inner", "echo");
	}

	@Test
	void pipelineWithNothingElseStaysBareAndStillBinds() throws Exception {
		ToolPipeline pipeline = ToolPipeline.chain(this.echo, ArgumentBindingMiddleware.INSTANCE);
		assertThat(pipeline.isBare()).isTrue();
		assertThat(pipeline.layers()).containsExactly("echo");
		assertThat(pipeline.call(unbound(() -> Map.of("text", "bound")))).isEqualTo("bound");
	}

	@Test
	void pipelineBuiltWithoutTheStepBindsOutsideEveryMiddleware() throws Exception {
		List<String> seen = new ArrayList<>();
		ToolPipeline pipeline = ToolPipeline.chain(this.echo, recording("only", seen));
		assertThat(pipeline.call(unbound(() -> Map.of("text", "bound")))).isEqualTo("bound");
		assertThat(seen).containsExactly("only:bound(String)");
	}

	@Test
	void boundCallPassesThroughUntouched() throws Exception {
		ToolPipeline pipeline = ToolPipeline.chain(this.echo, ArgumentBindingMiddleware.INSTANCE);
		assertThat(pipeline.call(ToolInvocation.builder(this.descriptor).argument("text", "java").build()))
			.isEqualTo("java");
	}

	private ToolInvocation unbound(java.util.function.Supplier<Map<String, Object>> binder) {
		return ToolInvocation.builder(this.descriptor)
			.attribute(UnboundArguments.ATTRIBUTE, new UnboundArguments(binder::get))
			.build();
	}

	private static ToolMiddleware recording(String name, List<String> seen) {
		return new ToolMiddleware() {

			@Override
			public String name() {
				return name;
			}

			@Override
			public ToolHandler wrap(ToolDescriptor tool, ToolHandler next) {
				return (invocation) -> {
					Object text = invocation.argument("text");
					seen.add(name + ":" + text + "(" + text.getClass().getSimpleName() + ")");
					return next.handle(invocation);
				};
			}

		};
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
