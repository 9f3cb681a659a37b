package dev.agentmiddleware.todo;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.agentmiddleware.binding.InvalidToolArgumentsException;
import dev.agentmiddleware.cache.CacheMiddleware;
import dev.agentmiddleware.chain.ToolMiddleware;
import dev.agentmiddleware.chain.ToolPipeline;
import dev.agentmiddleware.thread.ThreadStore;
import dev.agentmiddleware.thread.ThreadStore.InMemoryThreadStore;
import dev.agentmiddleware.todo.TodoMiddleware.TodoLimits;
import dev.agentmiddleware.tool.ExecutableTool;
import dev.agentmiddleware.tool.ToolDescriptor.SafetyLevel;
import dev.agentmiddleware.tool.ToolInvocation;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

class TodoMiddlewareTests {

	private final ThreadStore store = new InMemoryThreadStore();

	private final TodoMiddleware todos = new TodoMiddleware(this.store, new TodoLimits(3, 20));

	private final List<String> chainCalls = new ArrayList<>();

	@Test
	void contributesWriteReadAndUpdateAsSafeTools() {
		assertThat(this.todos.tools()).extracting((tool) -> tool.descriptor().name())
			.containsExactly("write_todos", "read_todos", "update_todo");
		assertThat(this.todos.tools()).allSatisfy((tool) -> {
			assertThat(tool.descriptor().safety()).isEqualTo(SafetyLevel.SAFE);
			assertThat(tool.descriptor().idempotent()).isTrue();
			assertThat(tool.descriptor().openWorld()).isFalse();
			assertThat(tool.descriptor().title()).isNotBlank();
			assertThat(CacheMiddleware.cachedByDefault(tool.descriptor())).as("never cached by default").isFalse();
		});
		assertThat(this.todos.tools()).filteredOn((tool) -> tool.descriptor().readOnly())
			.extracting((tool) -> tool.descriptor().name())
			.containsExactly("read_todos");
	}

	@Test
	void theDefaultCacheLeavesReadTodosAloneSoAReadAfterAWriteSeesTheWrite() throws Exception {
		ExecutableTool write = tool("write_todos");
		ExecutableTool read = tool("read_todos");
		CacheMiddleware cache = CacheMiddleware.builder().build();
		ToolPipeline writes = ToolPipeline.chain(write, cache);
		ToolPipeline reads = ToolPipeline.chain(read, cache);
		assertThat(reads.layers()).containsExactly("read_todos");
		writes.call(ToolInvocation.builder(write.descriptor())
			.sessionId("t9")
			.argument("todos", List.of(item("1", "first", "pending")))
			.build());
		assertThat(reads.call(ToolInvocation.builder(read.descriptor()).sessionId("t9").build()))
			.isEqualTo(Map.of("todos", List.of(item("1", "first", "pending"))));
		writes.call(ToolInvocation.builder(write.descriptor())
			.sessionId("t9")
			.argument("todos", List.of(item("1", "first", "done")))
			.build());
		assertThat(reads.call(ToolInvocation.builder(read.descriptor()).sessionId("t9").build()))
			.isEqualTo(Map.of("todos", List.of(item("1", "first", "done"))));
	}

	@Test
	void writeThenReadReturnsTheListStoredInTheThreadMetadataUnderTodos() throws Exception {
		Object written = call("write_todos", "t1", Map.of("todos",
				List.of(item("1", "Read the file", "pending"), item("2", "Summarise it", "in_progress"))));
		assertThat(written).isEqualTo(Map.of("todos",
				List.of(item("1", "Read the file", "pending"), item("2", "Summarise it", "in_progress"))));
		assertThat(call("read_todos", "t1", Map.of())).isEqualTo(written);
		assertThat(this.store.load("t1").get("todos")).isEqualTo(((Map<?, ?>) written).get("todos"));
		assertThat(this.chainCalls).containsExactly("write_todos", "read_todos");
	}

	@Test
	void writeReplacesTheWholeList() throws Exception {
		call("write_todos", "t1", Map.of("todos", List.of(item("1", "a", "pending"), item("2", "b", "pending"))));
		call("write_todos", "t1", Map.of("todos", List.of(item("3", "c", "done"))));
		assertThat(this.todos.todos("t1")).containsExactly(new TodoItem("3", "c", TodoItem.Status.DONE));
	}

	@Test
	void updateChangesOneItemAndKeepsTheOthers() throws Exception {
		call("write_todos", "t1", Map.of("todos", List.of(item("1", "a", "pending"), item("2", "b", "pending"))));
		call("update_todo", "t1", args("id", "2", "status", "done"));
		call("update_todo", "t1", args("id", "1", "text", "a, better"));
		assertThat(this.todos.todos("t1")).containsExactly(new TodoItem("1", "a, better", TodoItem.Status.PENDING),
				new TodoItem("2", "b", TodoItem.Status.DONE));
	}

	@Test
	void eachThreadHasItsOwnList() throws Exception {
		call("write_todos", "t1", Map.of("todos", List.of(item("1", "a", "pending"))));
		assertThat(call("read_todos", "t2", Map.of())).isEqualTo(Map.of("todos", List.of()));
	}

	@Test
	void badInputGetsAClearErrorAndLeavesTheListUnchanged() throws Exception {
		call("write_todos", "t1", Map.of("todos", List.of(item("1", "a", "pending"))));
		Map<String, Object> before = this.store.load("t1").values();
		assertInvalid("write_todos", Map.of("todos", List.of(item("1", "a", "pending"), item("1", "b", "done"))),
				"todos[1].id", "used twice");
		assertInvalid("write_todos", Map.of("todos", List.of(item("1", "a", "finished"))), "todos[0].status",
				"pending, in_progress, done");
		assertInvalid("write_todos", Map.of("todos", List.of(Map.of("text", "a", "status", "done"))), "todos[0].id",
				"non-empty string");
		assertInvalid("write_todos", Map.of("todos", List.of(item("1", "a".repeat(21), "done"))), "todos[0].text",
				"at most 20");
		assertInvalid("write_todos", Map.of("todos", List.of(item("1", "a", "done"), item("2", "a", "done"),
				item("3", "a", "done"), item("4", "a", "done"))), "todos", "at most 3");
		assertInvalid("write_todos", Map.of("todos", "buy milk"), "todos", "expected an array");
		assertInvalid("update_todo", args("id", "9", "status", "done"), "id", "known ids: [1]");
		assertInvalid("update_todo", args("id", "1", "status", "later"), "status", "pending, in_progress, done");
		assertInvalid("update_todo", args("id", "1"), null, "give 'status'");
		assertThat(this.store.load("t1").values()).isEqualTo(before);
		assertThat(this.store.load("t1").version()).isEqualTo(1);
	}

	@Test
	void aCallWithoutAThreadIsRefused() {
		ExecutableTool read = tool("read_todos");
		assertThatIllegalStateException()
			.isThrownBy(() -> read.handler().handle(ToolInvocation.builder(read.descriptor()).build()))
			.withMessageContaining("'read_todos'")
			.withMessageContaining("conversation id");
	}

	private void assertInvalid(String tool, Map<String, Object> arguments, String parameter, String problem) {
		assertThatExceptionOfType(InvalidToolArgumentsException.class).isThrownBy(() -> call(tool, "t1", arguments))
			.satisfies((ex) -> {
				assertThat(ex.toolName()).isEqualTo(tool);
				assertThat(ex.parameter()).isEqualTo(parameter);
				assertThat(ex.getMessage()).contains(problem);
			});
	}

	private Object call(String name, String threadId, Map<String, Object> arguments) throws Exception {
		ExecutableTool tool = tool(name);
		ToolMiddleware recording = ToolMiddleware.named("recording", (descriptor, next) -> (invocation) -> {
			this.chainCalls.add(invocation.toolName());
			return next.handle(invocation);
		});
		return ToolPipeline.chain(tool, recording)
			.call(ToolInvocation.builder(tool.descriptor()).sessionId(threadId).arguments(arguments).build());
	}

	private ExecutableTool tool(String name) {
		return this.todos.tools()
			.stream()
			.filter((tool) -> tool.descriptor().name().equals(name))
			.findFirst()
			.orElseThrow();
	}

	private static Map<String, Object> item(String id, String text, String status) {
		return args("id", id, "text", text, "status", status);
	}

	private static Map<String, Object> args(String... keysAndValues) {
		Map<String, Object> map = new LinkedHashMap<>();
		for (int i = 0; i < keysAndValues.length; i += 2) {
			map.put(keysAndValues[i], keysAndValues[i + 1]);
		}
		return map;
	}

}
