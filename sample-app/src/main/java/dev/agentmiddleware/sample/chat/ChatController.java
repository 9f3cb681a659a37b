package dev.agentmiddleware.sample.chat;

import java.util.List;
import java.util.Map;
import java.util.UUID;

import dev.agentmiddleware.todo.TodoItem;
import dev.agentmiddleware.todo.TodoMiddleware;
import org.jspecify.annotations.Nullable;

import org.springframework.ai.chat.client.ChatClient;
import org.springframework.ai.chat.memory.ChatMemory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;

/**
 * {@code POST /chat}: one user turn of a conversation, through a {@code ChatClient} whose
 * tool loop runs the agent-level middleware. The auto-configured
 * {@code ChatClient.Builder} already carries every tool (the sample's {@code @AgentTool}s
 * and the todo tools) and the agent tool-calling advisor. The conversation id names the
 * thread, under the prefix {@value #THREAD_PREFIX} (chat conversations and MCP sessions
 * never share a thread): its todo list lives in the thread store (an H2 file database by
 * default).
 */
@RestController
class ChatController {

	/**
	 * The prefix of the threads of chat conversations, their own namespace beside MCP
	 * sessions.
	 */
	static final String THREAD_PREFIX = "chat:";

	private final ChatClient chatClient;

	private final HookTraceMiddleware trace;

	private final ObjectProvider<TodoMiddleware> todos;

	ChatController(ChatClient.Builder chatClientBuilder, HookTraceMiddleware trace,
			ObjectProvider<TodoMiddleware> todos) {
		this.chatClient = chatClientBuilder.build();
		this.trace = trace;
		this.todos = todos;
	}

	@PostMapping("/chat")
	ChatReply chat(@RequestBody ChatRequest request) {
		String conversationId = (request.conversationId() != null && !request.conversationId().isBlank())
				? request.conversationId() : UUID.randomUUID().toString();
		String thread = thread(conversationId);
		String answer = this.chatClient.prompt()
			.user((request.message() != null) ? request.message() : "")
			.advisors((advisors) -> advisors.param(ChatMemory.CONVERSATION_ID, thread))
			.call()
			.content();
		TodoMiddleware todoMiddleware = this.todos.getIfAvailable();
		List<Map<String, Object>> todoList = (todoMiddleware != null)
				? todoMiddleware.todos(thread).stream().map(TodoItem::toJson).toList() : List.of();
		return new ChatReply(conversationId, (answer != null) ? answer : "", this.trace.take(thread), todoList);
	}

	/**
	 * A conversation's todo list as the thread store keeps it, without a turn of the
	 * model: after a restart it is still there, since the sample's threads live in its H2
	 * file database.
	 * @param conversationId the conversation
	 * @return its todo list, empty for a conversation that has none
	 */
	@GetMapping("/chat/{conversationId}/todos")
	List<Map<String, Object>> todos(@PathVariable String conversationId) {
		TodoMiddleware todoMiddleware = this.todos.getIfAvailable();
		return (todoMiddleware != null)
				? todoMiddleware.todos(thread(conversationId)).stream().map(TodoItem::toJson).toList() : List.of();
	}

	/**
	 * The thread (and session) of a chat conversation: its id under the
	 * {@value #THREAD_PREFIX} prefix, so that a conversation id equal to an MCP session
	 * id never reaches that session's todo list, cache entries or grants.
	 * @param conversationId the conversation id the client sent
	 * @return the thread id
	 */
	static String thread(String conversationId) {
		return THREAD_PREFIX + conversationId;
	}

	/**
	 * The body of {@code POST /chat}.
	 *
	 * @param conversationId the conversation; a new one when absent
	 * @param message what the user says
	 */
	record ChatRequest(@Nullable String conversationId, @Nullable String message) {
	}

	/**
	 * The answer of {@code POST /chat}.
	 *
	 * @param conversationId the conversation
	 * @param answer the model's answer
	 * @param trace what each iteration of the tool loop did, as
	 * {@link HookTraceMiddleware} saw it
	 * @param todos the conversation's todo list after the turn
	 */
	record ChatReply(String conversationId, String answer, List<String> trace, List<Map<String, Object>> todos) {
	}

}
