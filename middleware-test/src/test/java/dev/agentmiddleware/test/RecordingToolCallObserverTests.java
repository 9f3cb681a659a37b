package dev.agentmiddleware.test;

import java.util.Map;

import dev.agentmiddleware.tool.CallOutcome;
import dev.agentmiddleware.tool.ExecutableTool;
import dev.agentmiddleware.tool.ToolDescriptor;
import dev.agentmiddleware.tool.ToolDescriptor.SafetyLevel;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

class RecordingToolCallObserverTests {

	@Test
	void recordsEachCallOfEachToolWithItsArgumentsOutcomeAndResult() throws Exception {
		try (ToolHarness echo = ToolHarness.chain(tool("echo"))) {
			RecordingToolCallObserver observer = echo.observer();
			echo.call(Map.of("text", "a"));
			echo.call(Map.of("text", "b"));
			assertThat(observer.records("echo")).hasSize(2);
			assertThat(observer.records("echo", Map.of("text", "b"))).singleElement()
				.satisfies((record) -> assertThat(record.result()).isEqualTo("b"));
			assertThat(observer.outcomes()).containsExactly(CallOutcome.SUCCEEDED, CallOutcome.SUCCEEDED);
			assertThat(observer.lastRecord().invocation().arguments()).isEqualTo(Map.of("text", "b"));
			assertThat(observer.records("other")).isEmpty();
			observer.clear();
			assertThat(observer.records()).isEmpty();
		}
	}

	@Test
	void lastRecordOfAToolNeverCalledNamesTheToolsObserved() throws Exception {
		try (ToolHarness echo = ToolHarness.chain(tool("echo"))) {
			echo.call(Map.of("text", "a"));
			assertThatIllegalStateException().isThrownBy(() -> echo.observer().lastRecord("search"))
				.withMessage("No call of 'search' was observed; observed: [echo]");
		}
		assertThatIllegalStateException().isThrownBy(() -> new RecordingToolCallObserver().lastRecord())
			.withMessage("No call was observed");
	}

	@Test
	void isSynchronousSoRecordsAreThereWhenTheCallReturns() {
		assertThat(new RecordingToolCallObserver().synchronous()).isTrue();
	}

	private static ExecutableTool tool(String name) {
		return new ExecutableTool(ToolDescriptor.builder(name).safety(SafetyLevel.SAFE).build(),
				(invocation) -> invocation.argument("text"));
	}

}
