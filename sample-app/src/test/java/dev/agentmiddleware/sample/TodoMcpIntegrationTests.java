package dev.agentmiddleware.sample;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The todo tools over MCP, with the MCP Java SDK's client: the MCP session is the thread.
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT)
class TodoMcpIntegrationTests {

	private static final List<Map<String, Object>> TODOS = List.of(
			Map.of("id", "1", "text", "Read the notes", "status", "in_progress"),
			Map.of("id", "2", "text", "Write the summary", "status", "pending"));

	@TempDir
	static Path workspace;

	@LocalServerPort
	int port;

	@DynamicPropertySource
	static void workspaceInTempDir(DynamicPropertyRegistry registry) {
		registry.add("sample.workspace.root", () -> workspace.toString());
	}

	@Test
	void theTodoToolsAreListedWithTheOtherTools() {
		try (McpSession session = McpSession.open(this.port)) {
			assertThat(session.toolNames()).contains("write_todos", "read_todos", "update_todo", "read_file");
		}
	}

	@Test
	void writeThenReadInOneSessionReturnsTheList() {
		try (McpSession session = McpSession.open(this.port)) {
			session.succeed("write_todos", Map.of("todos", TODOS));
			assertThat(todos(session.succeed("read_todos", Map.of()))).isEqualTo(TODOS);
		}
	}

	@Test
	void updateTodoChangesOneItem() {
		try (McpSession session = McpSession.open(this.port)) {
			session.succeed("write_todos", Map.of("todos", TODOS));
			session.succeed("update_todo", Map.of("id", "2", "status", "done"));
			assertThat(todos(session.succeed("read_todos", Map.of()))).containsExactly(TODOS.get(0),
					Map.of("id", "2", "text", "Write the summary", "status", "done"));
		}
	}

	@Test
	void anotherSessionSeesItsOwnEmptyList() {
		try (McpSession first = McpSession.open(this.port); McpSession second = McpSession.open(this.port)) {
			first.succeed("write_todos", Map.of("todos", TODOS));
			assertThat(todos(second.succeed("read_todos", Map.of()))).isEmpty();
			assertThat(todos(first.succeed("read_todos", Map.of()))).hasSize(2);
		}
	}

	@Test
	void invalidInputIsAnErrorResultAndLeavesTheListUnchanged() {
		try (McpSession session = McpSession.open(this.port)) {
			session.succeed("write_todos", Map.of("todos", TODOS));
			String duplicate = session.fail("write_todos",
					Map.of("todos", List.of(Map.of("id", "1", "text", "a", "status", "pending"),
							Map.of("id", "1", "text", "b", "status", "pending"))));
			assertThat(duplicate).contains("write_todos").contains("todos[1].id").contains("unique");
			String badStatus = session.fail("update_todo", Map.of("id", "1", "status", "finished"));
			assertThat(badStatus).contains("update_todo").contains("status").contains("pending, in_progress, done");
			String unknownId = session.fail("update_todo", Map.of("id", "9", "status", "done"));
			assertThat(unknownId).contains("known ids");
			assertThat(todos(session.succeed("read_todos", Map.of()))).isEqualTo(TODOS);
		}
	}

	@SuppressWarnings("unchecked")
	private static List<Map<String, Object>> todos(String json) {
		return (List<Map<String, Object>>) JsonMapper.shared().readValue(json, Map.class).get("todos");
	}

}
